// The database keeps references whole: a group with anything in it cannot be
// deleted, and what belongs to a row goes with it (bindings, invites, account
// associations and terms acceptances with their group, bindings with their
// identity, tags, tag history, manifests, blob links and uploads with
// their repo; blob rows stay for gc). Also: a database made by
// the first schema (parents '' for roots, rows pointing at nothing) upgrades.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startBerth, useBerth, freshDatabase, dropDatabase, type Berth } from '../harness/berth-process.js';
import { identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { sqlQuery } from '../harness/database.js';
import { seedImage } from '../harness/registry-content.js';

describe('foreign keys', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  const group = async (name: string) => (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name } })).json.uid as string;

  it('refuses to delete a group that holds a group, an identity, a role or a repo, naming it', async () => {
    const cases: Array<[string, (g: string) => Promise<unknown>]> = [
      ['groups', (g) => rest(berth.url, 'POST', `/iam/v2/groups/${g}`, { token, body: { name: 'child' } })],
      ['identities', (g) => identityWithRole(berth.url, token, g, undefined, g)],
      ['roles', (g) => rest(berth.url, 'POST', `/iam/v2/roles/${g}`, { token, body: { name: 'r', capabilities: ['CAP_REPO_LIST'] } })],
      ['repos', (g) => rest(berth.url, 'POST', `/registry/v2/repos/${g}`, { token, body: { name: 'repo' } })],
    ];
    for (const [child, make] of cases) {
      const g = await group(`holds-${child}`);
      await make(g);
      const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token });
      assert.equal(del.status, 400, del.text);
      assert.equal(del.json.message, `Precondition failed: cannot delete group with child ${child}`);
      assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${g}`, { token })).status, 200);
    }
  });

  it('deletes a group together with the role bindings made on it', async () => {
    const g = await group('bound-here');
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', g);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token });
    assert.equal(del.status, 200, del.text);
    const left = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(who.uid)}`, { token });
    assert.equal(left.json.totalCount, '0');
    assert.deepEqual(await sqlQuery(berth, 'select uid from role_bindings where parent_uid = $1', [g]), []);
  });

  it('deletes a group together with its invites, account association and terms acceptances', async () => {
    const g = await group('with-iam-records');
    const viewer = '63921b2c44617e3f2603851537be0123af4a57d7';
    assert.equal((await rest(berth.url, 'POST', `/iam/v2/groupInvites/${g}`, { token, body: { roleUid: viewer } })).status, 200);
    const aa = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'aws', amazon: { account: '123456789012' } } });
    assert.equal(aa.status, 200, aa.text);
    // No --terms-file on this server: the acceptance is planted.
    const now = new Date().toISOString();
    await sqlQuery(berth, 'insert into terms_acceptances (uid, group_uid, doc_id, accepted_by, create_time, update_time) values ($1, $2, $3, $4, $5, $5)', [
      `${g}/${randomBytes(8).toString('hex')}`,
      g,
      'tos.v1',
      berth.ownerIdentity,
      now,
    ]);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token });
    assert.equal(del.status, 200, del.text);
    for (const [table, column] of [
      ['group_invites', 'parent_uid'],
      ['account_associations', 'uid'],
      ['terms_acceptances', 'group_uid'],
    ]) {
      assert.deepEqual(await sqlQuery(berth, `select uid from ${table} where ${column} = $1`, [g]), [], table);
    }
  });

  it('deletes a repo together with its tags, tag history and content, keeping blob rows for gc', async () => {
    const repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'with-tags' } })).json.uid as string;
    for (let i = 0; i < 2; i++) {
      const digest = await seedImage(berth, repo);
      assert.equal((await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'latest', digest } })).status, 200);
    }
    await sqlQuery(berth, "insert into uploads (id, repo_uid, create_time) values ('fk-upload', $1, '2024-01-01T00:00:00.000Z')", [repo]);
    const content = ['tag_history', 'manifests', 'manifest_refs', 'repo_blobs', 'uploads'];
    for (const table of content) assert.notDeepEqual(await sqlQuery(berth, `select repo_uid from ${table} where repo_uid = $1`, [repo]), [], table);
    assert.equal((await sqlQuery(berth, 'select id from tag_history where repo_uid = $1', [repo])).length, 2);
    const linked = (await sqlQuery(berth, 'select digest from repo_blobs where repo_uid = $1', [repo])).map((r) => r.digest);
    assert.equal((await rest(berth.url, 'DELETE', `/registry/v2/repos/${repo}`, { token })).status, 200);
    assert.deepEqual(await sqlQuery(berth, 'select uid from tags where parent_uid = $1', [repo]), []);
    for (const table of content) assert.deepEqual(await sqlQuery(berth, `select repo_uid from ${table} where repo_uid = $1`, [repo]), [], table);
    for (const digest of linked) assert.equal((await sqlQuery(berth, 'select digest from blobs where digest = $1', [digest])).length, 1);
  });
});

const DIST_SRC = join(import.meta.dirname, '..', '..', 'src');
const load = (path: string) => import(pathToFileURL(join(DIST_SRC, `${path}.js`)).href);

/** Runs the first schema's migrations (as released before the keys) on an empty database. */
async function firstSchema(target: { dataDir: string; databaseUrl?: string }): Promise<void> {
  const { SQLITE, POSTGRES } = await load('store/db-capabilities');
  const { SqliteFileDialect } = await load('store/sqlite-driver');
  const db = new Kysely<{ kysely_migration: { name: string; timestamp: string } }>({
    dialect: target.databaseUrl
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: target.databaseUrl }) })
      : new SqliteFileDialect(join(target.dataDir, 'berth.db')),
  });
  try {
    for (const m of ['store/migrations/0001-initial', 'store/migrations/0002-table-versions', 'auth/migrations/0003-used-assertions']) {
      await (await load(m)).up(db, target.databaseUrl ? POSTGRES : SQLITE);
    }
    await db.schema
      .createTable('kysely_migration')
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('kysely_migration_lock')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const now = new Date().toISOString();
    for (const name of ['0001-initial', '0002-table-versions', '0003-used-assertions'])
      await db.insertInto('kysely_migration').values({ name, timestamp: now }).execute();
  } finally {
    await db.destroy();
  }
}

describe('upgrading a database of the first schema', () => {
  it('turns empty parents into none, drops rows that point at nothing, and serves on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-upgrade-'));
    const databaseUrl = await freshDatabase();
    const target = { dataDir, databaseUrl };
    await firstSchema(target);
    const now = new Date().toISOString();
    const org = randomBytes(20).toString('hex');
    const orphanRepo = `${randomBytes(20).toString('hex')}/${randomBytes(8).toString('hex')}`;
    await sqlQuery(
      target,
      "insert into groups (uid, parent_uid, name, description, verified, create_time, update_time) values ($1, '', 'legacy.org', '', 0, $2, $2)",
      [org, now],
    );
    await sqlQuery(target, 'insert into role_bindings (uid, parent_uid, identity_uid, role_uid, create_time, update_time) values ($1, $2, $3, $4, $5, $5)', [
      `${org}/0000000000000001`,
      org,
      `${org}/00000000000000aa`,
      'nope',
      now,
    ]);
    await sqlQuery(
      target,
      "insert into tags (uid, parent_uid, name, digest, deprecated, create_time, update_time) values ($1, $2, 'x', 'sha256:0', 0, $3, $3)",
      [`${orphanRepo}/0000000000000001`, orphanRepo, now],
    );

    const berth = await startBerth({ dataDir, databaseUrl });
    try {
      assert.deepEqual(await sqlQuery(target, 'select parent_uid from groups where uid = $1', [org]), [{ parent_uid: null }]);
      assert.deepEqual(
        await sqlQuery(target, 'select uid from role_bindings where parent_uid = $1', [org]),
        [],
        'a binding of a missing identity and role is gone',
      );
      assert.deepEqual(await sqlQuery(target, 'select uid from tags where parent_uid = $1', [orphanRepo]), [], 'a tag of a missing repo is gone');
      const token = ownerToken(berth.credentialsFile, berth.url);
      const sub = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'after-upgrade' } });
      assert.equal(sub.status, 200, sub.text);
      const taken = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'legacy.org' } });
      assert.equal(taken.status, 409, `root names stay unique across the upgrade: ${taken.text}`);
    } finally {
      await berth.stop();
      await dropDatabase(databaseUrl);
    }
  });
});
