// What matching reads follows the v1 advisory API too (SQLite, or PostgreSQL
// with BERTH_TEST_PG): an advisory created over REST matches nothing until an
// event is approved; an approved fix matches below it; an approved false
// positive ends the match; a delete removes it; each change is logged under
// the advisory's (ecosystem, package) key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import { matchInventory } from '../../src/scanning/matching/match-inventory.js';
import { openStore, type Store } from '../../src/store/store.js';
import { lastAdvisoryChange, readAdvisoryChanges } from '../../src/vulnerabilities/affected/advisory-changes.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';

const REVIEW_CAPS = ['CAP_ADVISORIES_LIST', 'CAP_ADVISORIES_CREATE', 'CAP_ADVISORIES_UPDATE', 'CAP_ADVISORIES_APPROVE'];

describe('matching follows advisory API writes', () => {
  let berth: Berth;
  let token: string;
  let store: Store;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  before(async () => {
    store = await openStore({ dataDir: berth.dataDir, databaseUrl: berth.databaseUrl, poolSize: 2 });
  });
  after(async () => store?.close());

  const api = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const ok = async (p: ReturnType<typeof api>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const nginx = (version: string): InstalledPackage => ({
    type: 'apk',
    name: 'nginx',
    version,
    purl: `pkg:apk/wolfi/nginx@${version}`,
    locations: ['lib/apk/db/installed'],
    foundBy: 'apk-db',
  });
  const matches = async (version: string) =>
    (await matchInventory(store.db, { os: { id: 'wolfi' }, packages: [nginx(version)], skipped: [] })).map((m) =>
      `${m.vulnerabilityId} ${m.fix.state} ${m.fix.versions.join(',')}`.trim(),
    );
  const keysSince = async (cursor: number) => (await readAdvisoryChanges(store.db, cursor)).map((c) => `${c.ecosystem} ${c.package}`);

  it('matches after an approved fix, stops at an approved false positive, and forgets a deleted advisory', async () => {
    await ok(api('POST', `/iam/v2/roles/${berth.orgUid}`, { name: 'advisory-reviewer', capabilities: REVIEW_CAPS }));
    const reviewer = await identityWithRole(berth.url, token, berth.orgUid, 'advisory-reviewer', berth.orgUid);
    const advisory = {
      artifactType: 'apk',
      artifactName: 'nginx',
      artifactArchitecture: 'x86_64',
      componentName: 'nginx',
      componentType: 'apk',
      componentLocation: './PKGINFO',
      aliases: ['CVE-2024-7777'],
    };
    const uid = (await ok(api('POST', '/vulnerabilities/v1/advisories', { parentId: berth.orgUid, advisory }))).id as string;
    assert.deepEqual(await matches('1.25.0-r0'), []);

    let cursor = await lastAdvisoryChange(store.db);
    const fixed = await ok(api('POST', `/vulnerabilities/v1/advisories/${uid}/events`, { advisoryEvent: { fixed: { fixedVersion: '1.25.3-r1' } } }));
    assert.deepEqual(await matches('1.25.0-r0'), [], 'a pending event decides nothing');
    await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${fixed.id}`, { status: 'APPROVED' }, reviewer.token));
    assert.deepEqual(await matches('1.25.3-r0'), ['CVE-2024-7777 fixed 1.25.3-r1']);
    assert.deepEqual(await matches('1.25.3-r1'), []);
    assert.deepEqual(await keysSince(cursor), ['apk nginx']);

    const fp = await ok(
      api('POST', `/vulnerabilities/v1/advisories/${uid}/events`, {
        advisoryEvent: { falsePositiveDetermination: { type: 'COMPONENT_VULNERABILITY_MISMATCH' } },
      }),
    );
    await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${fp.id}`, { status: 'APPROVED' }, reviewer.token));
    assert.deepEqual(await matches('1.25.3-r0'), []);

    cursor = await lastAdvisoryChange(store.db);
    await ok(api('DELETE', `/vulnerabilities/v1/advisories/${uid}`));
    assert.deepEqual(await keysSince(cursor), ['apk nginx']);
    assert.equal((await store.db.selectFrom('advisory_ranges').select('advisory_uid').where('advisory_uid', '=', uid).execute()).length, 0);
  });
});
