// The advisory feed over a real import: a seeded generated feed rendered as
// YAML and imported with `berth advisories import --arch x86_64,aarch64
// --namespace wolfi` (two rows per advisory, the same events on both) must
// come back from /advisory/v2/documents exactly as the generator's truth —
// one document per package, each CGA id once, every event once, oldest first,
// in the feed's shape — checked against an oracle written here from the
// truth, and for a tiny set against golden JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type GeneratedFeed, generateAdvisories, renderYaml } from '../harness/advisory-generator.js';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { sqlQuery } from '../harness/database.js';
import { assertGolden } from '../harness/golden.js';
import type { NormalizedEvent } from '../../src/vulnerabilities/import/normalized-advisory.js';

type Json = Record<string, unknown>;

/** Drops zero values (the REST answer writes them; the truth leaves them out). */
function withoutZeros(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutZeros);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Json)
      .filter(([, x]) => x !== '' && x !== 0)
      .map(([k, x]) => [k, withoutZeros(x)]),
  );
}

/** The feed's form of a truth event, written independently of the server's mapping. */
function feedEvent(e: NormalizedEvent): Json {
  const p = e.payload as Json;
  let payload: Json = p;
  if (e.kind === 'detection' && p.scanv1) {
    const { subpackage, component, ...rest } = p.scanv1 as Json;
    payload = { scanv1: { ...rest, subpackageName: subpackage, componentName: component } };
  }
  if (e.kind === 'fixed') {
    const { note: _note, ...rest } = p;
    payload = rest;
  }
  const key = e.kind.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  return { timestamp: e.time, [key]: payload };
}

/** What ListDocuments must answer for these packages (and, when given, only advisories with any of `cves`). */
function expectedDocuments(feed: GeneratedFeed, origins: readonly string[], cves?: readonly string[]): Json {
  const documents = feed.documents
    .filter((d) => origins.includes(d.origin))
    .sort((a, b) => (a.origin < b.origin ? -1 : 1))
    .map((d) => ({
      id: d.origin,
      advisories: d.advisories
        .filter((a) => a.events.length > 0 && (!cves || a.aliases.some((x) => cves.includes(x))))
        .sort((a, b) => (a.advisoryId < b.advisoryId ? -1 : 1))
        .map((a) => ({
          id: a.advisoryId,
          events: [...a.events].sort((x, y) => (x.time < y.time ? -1 : x.time > y.time ? 1 : 0)).map(feedEvent),
          aliases: a.aliases,
          packageNamespace: 'wolfi',
        })),
    }))
    .filter((d) => d.advisories.length > 0);
  return withoutZeros({ documents }) as Json;
}

async function importFeed(berth: Berth, feed: GeneratedFeed): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-feed-'));
  for (const d of feed.documents) writeFileSync(join(dir, `${d.origin}.advisories.yaml`), renderYaml(d));
  const args = ['advisories', 'import', dir, '--arch', 'x86_64,aarch64', '--namespace', 'wolfi', '--data', berth.dataDir];
  if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
  const run = await berthCli(args);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  return dir;
}

describe('advisory feed from an imported YAML feed', () => {
  let berth: Berth;
  const dirs: string[] = [];
  const feed = generateAdvisories(20260301, { documents: 6, advisoriesPerDocument: 4 });
  const documents = async (query: string) => {
    const r = await rest(berth.url, 'GET', `/advisory/v2/documents?${query}`);
    assert.equal(r.status, 200, r.text);
    return r.json as Json;
  };

  useBerth((b) => {
    berth = b;
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('imports the generated feed through the CLI', async () => {
    dirs.push(await importFeed(berth, feed));
    // Two architectures: every advisory is two rows, which the documents merge back into one.
    const rows = await sqlQuery(berth, 'select count(*) as n from advisories');
    assert.equal(Number(rows[0].n), 2 * feed.documents.reduce((n, d) => n + d.advisories.length, 0));
  });

  it('answers every package as the truth says: one advisory per CGA id, its events once, oldest first', async () => {
    for (const d of feed.documents) {
      assert.deepEqual(withoutZeros(await documents(`id=${encodeURIComponent(d.origin)}`)), expectedDocuments(feed, [d.origin]), d.origin);
    }
  });

  it('filters by cves across packages as the truth says', async () => {
    const aliases = feed.documents.flatMap((d) => d.advisories.flatMap((a) => a.aliases));
    const pick = aliases.filter((_, i) => i % 5 === 0).slice(0, 6);
    assert.ok(pick.length >= 3, 'the generated feed has aliases');
    const origins = feed.documents.map((d) => d.origin);
    const got = await documents(pick.map((c) => `cves=${encodeURIComponent(c)}`).join('&'));
    assert.deepEqual(withoutZeros(got), expectedDocuments(feed, origins, pick));
    assert.ok((got.documents as unknown[]).length > 0);
  });
});

// Its own server: the generator names packages from one word list, so two feeds would share packages.
describe('advisory feed golden JSON of a tiny imported feed', () => {
  let berth: Berth;
  let dir = '';
  const tiny = generateAdvisories(7, { documents: 2, advisoriesPerDocument: 2, eventsPerAdvisory: 3 });
  useBerth((b) => {
    berth = b;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers exactly as the golden JSON (and the truth)', async () => {
    dir = await importFeed(berth, tiny);
    const origin = tiny.documents[0].origin;
    const r = await rest(berth.url, 'GET', `/advisory/v2/documents?id=${encodeURIComponent(origin)}`);
    assert.equal(r.status, 200, r.text);
    assertGolden('advisory/documents-generated', r.json);
    assert.deepEqual(withoutZeros(r.json), expectedDocuments(tiny, [origin]));
  });
});
