// One generated truth rendered as OSV (a directory and an all.zip), secdb and
// OpenVEX, each parsed back: the advisories equal the truth as far as the
// format can carry it. OSV and secdb carry only advisories whose latest event
// is fixed or a false positive, and only that event (secdb without its time,
// and per origin package); OpenVEX the latest event of every advisory with a
// VEX status, the false-positive type through its justification, a
// detection as a manual one, and no origin.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FALSE_POSITIVE_TYPES } from '../../src/vulnerabilities/event-kinds.js';
import type { NormalizedAdvisory, ParsedFile } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { JUSTIFICATION_TYPES, readOpenVexAdvisories } from '../../src/vulnerabilities/import/openvex-advisories.js';
import { readOsvAdvisories } from '../../src/vulnerabilities/import/osv-advisories.js';
import { readSecdbAdvisories, SECDB_EVENT_TIME } from '../../src/vulnerabilities/import/secdb-advisories.js';
import { generateAdvisories } from '../harness/advisory-generator.js';
import { latestEvent } from '../harness/advisory-render-common.js';
import { renderOpenVex } from '../harness/advisory-render-openvex.js';
import { renderOsv } from '../harness/advisory-render-osv.js';
import { renderSecdb } from '../harness/advisory-render-secdb.js';
import { writeZip } from '../harness/zip-writer.js';

const feed = generateAdvisories(20260517, { documents: 12, advisoriesPerDocument: 4 });
const truth = feed.documents.flatMap((d) => d.advisories);
const opts = { arch: ['x86_64'], namespace: '' };
const dir = mkdtempSync(join(tmpdir(), 'berth-adv-equiv-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function rows(files: AsyncIterable<ParsedFile>): Promise<NormalizedAdvisory[]> {
  const out: NormalizedAdvisory[] = [];
  for await (const f of files) out.push(...f.advisories);
  return out;
}

function sorted<T>(xs: T[]): string[] {
  return xs.map((x) => JSON.stringify(x)).sort();
}

/** What fixed / false positive say in OSV and secdb. */
function resolution(a: NormalizedAdvisory) {
  const e = latestEvent(a);
  if (e?.kind === 'fixed') return { time: e.time, kind: e.kind, fixedVersion: e.payload.fixedVersion };
  if (e?.kind === 'false-positive-determination') return { time: e.time, kind: e.kind };
  return undefined;
}

describe('one truth, four formats', () => {
  it('the generated feed has advisories each projection keeps and drops', () => {
    const kinds = new Set(truth.map((a) => latestEvent(a)?.kind));
    for (const k of ['fixed', 'false-positive-determination']) assert.ok(kinds.has(k as never), `no advisory ends in ${k}`);
    assert.ok(kinds.has('detection') || kinds.has('true-positive-determination'), 'no advisory ends in another VEX status');
    const vex = ['fixed', 'false-positive-determination', 'detection', 'true-positive-determination'];
    assert.ok(
      [...kinds].some((k) => !vex.includes(String(k))),
      'every advisory ends in a VEX status: OpenVEX drops none',
    );
    assert.ok(
      truth.some((a) => a.artifactName !== a.origin),
      'no subpackage advisory',
    );
  });

  it('OSV (a directory and an all.zip): the fixed and false-positive advisories, their latest event at its time', async () => {
    const osvDir = join(dir, 'osv');
    mkdirSync(osvDir);
    const files = feed.documents.flatMap((d) => renderOsv(d));
    for (const f of files) writeFileSync(join(osvDir, f.name), f.text);
    const zip = join(dir, 'all.zip');
    writeFileSync(zip, writeZip(files.map((f) => ({ name: f.name, data: Buffer.from(f.text) }))));
    const expected = sorted(
      truth.flatMap((a) => {
        const r = resolution(a);
        return r ? [{ id: a.advisoryId, aliases: a.aliases, artifact: a.artifactName, arch: a.artifactArchitecture, origin: a.origin, ...r }] : [];
      }),
    );
    assert.ok(expected.length >= 5 && expected.length < truth.length, `${expected.length} of ${truth.length}`);
    for (const source of [osvDir, zip]) {
      const imported = await rows(readOsvAdvisories(source, opts));
      assert.deepEqual(
        sorted(
          imported.map((a) => {
            assert.equal(a.events.length, 1);
            assert.deepEqual(
              [a.componentName, a.componentType, a.componentLocation, a.artifactType, a.author],
              [a.artifactName, 'apk', './PKGINFO', 'apk', 'import:osv'],
            );
            return { id: a.advisoryId, aliases: a.aliases, artifact: a.artifactName, arch: a.artifactArchitecture, origin: a.origin, ...resolution(a) };
          }),
        ),
        expected,
        source,
      );
    }
  });

  it('secdb: the fixed and false-positive advisories per origin package, on every listed arch, at the constant time', async () => {
    const file = join(dir, 'security.json');
    writeFileSync(file, renderSecdb(feed.documents, ['x86_64', 'aarch64']));
    const imported = await rows(readSecdbAdvisories(file, opts));
    const expected = sorted(
      truth.flatMap((a) => {
        const r = resolution(a);
        if (!r) return [];
        const { time: _, ...rest } = r;
        return ['x86_64', 'aarch64'].map((arch) => ({ id: a.advisoryId, aliases: a.aliases, artifact: a.origin, arch, origin: a.origin, ...rest }));
      }),
    );
    assert.ok(expected.length >= 10);
    assert.deepEqual(
      sorted(
        imported.map((a) => {
          const { time, ...rest } = resolution(a) ?? { time: '' };
          assert.equal(time, SECDB_EVENT_TIME);
          return { id: a.advisoryId, aliases: a.aliases, artifact: a.artifactName, arch: a.artifactArchitecture, origin: a.origin, ...rest };
        }),
      ),
      expected,
    );
  });

  it('OpenVEX: every advisory whose latest event has a VEX status, with its component, time and note', async () => {
    const vexDir = join(dir, 'vex');
    mkdirSync(vexDir);
    for (const d of feed.documents) writeFileSync(join(vexDir, `${d.origin}.openvex.json`), renderOpenVex(d));
    const imported = await rows(readOpenVexAdvisories(vexDir, opts));
    const status = (a: NormalizedAdvisory) => {
      const e = latestEvent(a);
      if (!e) return undefined;
      const note = typeof e.payload.note === 'string' ? { note: e.payload.note } : {};
      switch (e.kind) {
        case 'detection':
          return { time: e.time, kind: e.kind, payload: { manual: {} } };
        case 'true-positive-determination':
          return { time: e.time, kind: e.kind, payload: note };
        case 'fixed':
          return { time: e.time, kind: e.kind, payload: { fixedVersion: e.payload.fixedVersion } };
        case 'false-positive-determination': {
          const vex = FALSE_POSITIVE_TYPES.find((t) => t.proto === e.payload.type)?.vex ?? '';
          return { time: e.time, kind: e.kind, payload: { type: JUSTIFICATION_TYPES[vex], ...note } };
        }
        default:
          return undefined;
      }
    };
    const project = (a: NormalizedAdvisory) => ({
      id: a.advisoryId,
      aliases: a.aliases,
      artifact: a.artifactName,
      arch: a.artifactArchitecture,
      component: [a.componentName, a.componentType, a.componentLocation],
      ...status(a),
    });
    const expected = sorted(truth.filter((a) => status(a)).map(project));
    assert.ok(expected.length >= 5 && expected.length < truth.length, `${expected.length} of ${truth.length}`);
    assert.deepEqual(
      sorted(
        imported.map((a) => {
          assert.equal(a.events.length, 1);
          return project(a);
        }),
      ),
      expected,
    );
  });
});
