// The pure parts of EOL tags: a tag's stream by longest prefix on a component
// boundary (the brief's and endoflife.date's own examples), the grace period's
// end by calendar months, the status table, and the release-file parsers'
// errors naming the file and the JSON path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EolGracePeriodStatus as G, EolTagStatus as T } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { addMonths, tagLifecycle } from '../../src/registry/eol/eol-rules.js';
import { streamOf } from '../../src/registry/eol/stream-match.js';
import { parseReleaseFile } from '../../src/cli/eol-release-files.js';

const releases = ['3.13', '3.12', '3.11', '3.1', '2.7', '18', '1'].map((name, position) => ({ name, position }));
const stream = (tag: string) => streamOf(tag, releases)?.name;

describe('stream of a tag', () => {
  it('takes the longest release name ending on a component boundary', () => {
    assert.equal(stream('18.20.8-slim'), '18');
    assert.equal(stream('3.12'), '3.12');
    assert.equal(stream('3.12.7-dev'), '3.12');
    assert.equal(stream('3.1'), '3.1');
    assert.equal(stream('3.1.4'), '3.1');
    assert.equal(stream('v18.1'), '18');
    assert.equal(stream('1.2'), '1');
  });
  it('maps latest and tags without a version to the newest release, other versions to none', () => {
    assert.equal(stream('latest'), '3.13');
    assert.equal(stream('latest-dev'), '3.13');
    assert.equal(stream('slim'), '3.13');
    assert.equal(stream('17.0.1'), undefined);
    assert.equal(stream('3.14'), undefined);
    assert.equal(stream('181'), undefined);
  });
});

describe('grace period end', () => {
  it('adds calendar months, clamping the day to the month', () => {
    assert.equal(addMonths('2025-04-30', 6), '2025-10-30');
    assert.equal(addMonths('2025-08-31', 6), '2026-02-28');
    assert.equal(addMonths('2023-08-31', 6), '2024-02-29');
    assert.equal(addMonths('2024-10-15', 6), '2025-04-15');
  });
});

describe('status of a tag', () => {
  const now = Date.parse('2026-01-15T12:00:00Z');
  const s = (eolDate: string, releaseDate = '2020-01-01', eol = eolDate !== '') => ({ releaseDate, eolDate, eol });
  const at = (eolDate: string, more: { multipleTracks?: boolean; lastMove?: string; releaseDate?: string } = {}) =>
    tagLifecycle({ stream: s(eolDate, more.releaseDate), multipleTracks: more.multipleTracks ?? true, lastMove: more.lastMove ?? '2026-01-14T00:00:00Z', now });
  it('active before EOL, in grace within 6 months, inactive after', () => {
    assert.deepEqual(at('2026-06-01'), { tagStatus: T.TAG_ACTIVE, graceStatus: G.GRACE_ELIGIBLE, graceExpiry: '2026-12-01', broken: false });
    assert.deepEqual(at('2025-12-01'), { tagStatus: T.TAG_IN_GRACE, graceStatus: G.GRACE_ACTIVE, graceExpiry: '2026-06-01', broken: false });
    assert.deepEqual(at('2025-07-15'), { tagStatus: T.TAG_INACTIVE, graceStatus: G.GRACE_EXPIRED, graceExpiry: '2026-01-15', broken: false });
  });
  it('a tag not moved since before EOL is broken', () => {
    assert.deepEqual(at('2025-12-01', { lastMove: '2025-11-30T23:59:59Z' }), {
      tagStatus: T.TAG_INACTIVE,
      graceStatus: G.GRACE_BROKEN,
      graceExpiry: '2026-06-01',
      broken: true,
    });
  });
  it('is not eligible with a single track, without a release date, or without a stream', () => {
    assert.equal(at('2025-12-01', { multipleTracks: false }).tagStatus, T.TAG_INACTIVE);
    assert.equal(at('2025-12-01', { multipleTracks: false }).graceStatus, G.GRACE_NOT_ELIGIBLE);
    assert.equal(at('2026-06-01', { releaseDate: '' }).graceStatus, G.GRACE_NOT_ELIGIBLE);
    assert.equal(at('2026-06-01', { releaseDate: '' }).graceExpiry, '');
    assert.deepEqual(tagLifecycle({ multipleTracks: true, now }), {
      tagStatus: T.TAG_ACTIVE,
      graceStatus: G.GRACE_NOT_ELIGIBLE,
      graceExpiry: '',
      broken: false,
    });
    const eolNoDate = tagLifecycle({ stream: s('', '2020-01-01', true), multipleTracks: true, now });
    assert.equal(eolNoDate.tagStatus, T.TAG_INACTIVE);
  });
});

describe('release files', () => {
  const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
  it('reads v1 and v0', () => {
    const v1 = parseReleaseFile(
      'nodejs',
      bytes({
        schema_version: '1.0.0',
        result: {
          name: 'nodejs',
          aliases: ['node'],
          releases: [
            {
              name: '22',
              releaseDate: '2024-04-24',
              isLts: true,
              ltsFrom: '2024-10-29',
              isEol: false,
              eolFrom: '2027-04-30',
              latest: { name: '22.21.1', date: '2025-10-28' },
            },
          ],
        },
      }),
    );
    assert.deepEqual(v1.releases, [
      { name: '22', releaseDate: '2024-04-24', eolDate: '2027-04-30', eol: true, lts: true, ltsFrom: '2024-10-29', latestVersion: '22.21.1' },
    ]);
    assert.equal(v1.sourceRef, 'endoflife.date/v1/nodejs');
    const v0 = parseReleaseFile(
      'dir/python.json',
      bytes([
        { cycle: '3.12', releaseDate: '2023-10-02', eol: '2028-10-31', latest: '3.12.12', latestReleaseDate: '2025-10-09', lts: false },
        { cycle: '2.7', releaseDate: '2010-07-03', eol: true, latest: '2.7.18', lts: false },
      ]),
    );
    assert.equal(v0.name, 'python');
    assert.deepEqual(
      v0.releases.map((r) => [r.name, r.eolDate, r.eol]),
      [
        ['3.12', '2028-10-31', true],
        ['2.7', '', true],
      ],
    );
  });
  it('names the file and the JSON path of a bad value', () => {
    assert.throws(
      () => parseReleaseFile('n.json', bytes({ result: { name: 'n', releases: [{ name: '1', eolFrom: '2024-13-01' }] } })),
      /^ImportError: n\.json:0: result\.releases\[0\]\.eolFrom: not a date/,
    );
    assert.throws(() => parseReleaseFile('p.json', bytes([{ cycle: 3.1 }])), /p\.json:0: \[0\]\.cycle: must be a string/);
    assert.throws(() => parseReleaseFile('p.json', bytes([{ cycle: '1' }, { cycle: '1' }])), /\[1\]: release "1" appears twice/);
    assert.throws(() => parseReleaseFile('b.json', bytes('{"result": {\n  "name": "x",,\n}}')), /b\.json:2: invalid JSON/);
    assert.throws(() => parseReleaseFile('d.json', bytes(`${'['.repeat(100)}${']'.repeat(100)}`)), /d\.json:0: .*nest/i);
    assert.throws(() => parseReleaseFile('o.json', bytes({ hello: 1 })), /neither an endoflife\.date v1 product/);
  });
});
