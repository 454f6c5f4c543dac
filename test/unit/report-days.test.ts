// The pure parts of the day-by-day reports: UTC days of timestamps (and the
// years a day has a stored form in), and the REST text forms of a repeated
// image ref (Berth's extension: `<repo>[:<tag>[,<tag>…]]` or a JSON object).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayOf, dayOfIso, dayStartIso, daysFrom } from '../../src/scanning/tag-days/utc-days.js';
import { queryMessageType, queryMessageValue } from '../../src/server/rest/query-messages.js';

const at = (iso: string, nanos = 0) => ({ seconds: BigInt(Math.floor(Date.parse(iso) / 1000)), nanos });

describe('UTC days', () => {
  it('puts every instant of a day on that day, and the next millisecond on the next', () => {
    const day = dayOf(at('2026-03-02T00:00:00Z'))!;
    assert.equal(dayOf(at('2026-03-02T23:59:59Z', 999_999_999)), day);
    assert.equal(dayOf(at('2026-03-03T00:00:00Z')), day + 1);
    assert.equal(dayOf(at('2026-03-01T23:59:59Z')), day - 1);
    assert.equal(dayStartIso(day), '2026-03-02T00:00:00.000Z');
    assert.equal(dayOfIso('2026-03-02T23:59:59.999Z'), day);
    assert.deepEqual(daysFrom(day, day + 2), [day, day + 1, day + 2]);
  });

  it('has no day outside years 1 to 9999', () => {
    assert.equal(dayOf({ seconds: 253_402_300_800n, nanos: 0 }), undefined); // 10000-01-01
    assert.equal(dayOf({ seconds: -62_135_596_801n, nanos: 0 }), undefined); // 0000-12-31T23:59:59
    assert.equal(dayStartIso(dayOf({ seconds: -62_135_596_800n, nanos: 0 })!), '0001-01-01T00:00:00.000Z');
  });
});

describe('image refs in a REST query', () => {
  const ref = (raw: string) => queryMessageValue('berth.advisory.v2.ImageRef', raw);

  it('reads <repo>[:<tag>[,<tag>…]] and a JSON object', () => {
    assert.deepEqual(ref('tools/app'), { repo: 'tools/app' });
    assert.deepEqual(ref('tools/app:1.0'), { repo: 'tools/app', tags: ['1.0'] });
    assert.deepEqual(ref('tools/app:1.0,latest'), { repo: 'tools/app', tags: ['1.0', 'latest'] });
    assert.deepEqual(ref('{"repo":"tools/app","tags":["a"]}'), { repo: 'tools/app', tags: ['a'] });
  });

  it('refuses malformed JSON and an over-long value; other text is a repo name', () => {
    assert.throws(() => ref('{"repo":'), /malformed JSON/);
    assert.throws(() => queryMessageValue('berth.advisory.v1.ImageRef', '{}x'), /malformed JSON/);
    assert.throws(() => ref(`{${'"a":1,'.repeat(1000)}"b":2}`), /longer than 4096/);
    assert.deepEqual(ref('["a"]'), { repo: '["a"]' }, 'not JSON-object text: read as a repo name (which then matches no repo)');
  });

  it('is offered only for the image ref messages', () => {
    assert.equal(queryMessageType('berth.advisory.v2.ImageRef'), true);
    assert.equal(queryMessageType('berth.advisory.v1.ImageRef'), true);
    assert.equal(queryMessageType('berth.registry.v1.VulnCountReportReference'), false);
  });
});
