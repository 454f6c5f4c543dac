// syncGroupBindings against a real database (SQLite, or PostgreSQL with
// BERTH_TEST_PG): the sign-in flow's call that turns a provider's group claims
// into role bindings. The sign-in flow does not exist yet, so the function is
// driven directly, the way it will be: inside a transaction, with the groups
// of one sign in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Code, type ConnectError } from '@connectrpc/connect';
import { newChildUid, newRootUid } from '../../src/core/uidp.js';
import { syncGroupBindings } from '../../src/iam/group-mappings/sync-group-bindings.js';
import { builtinRoleByName } from '../../src/iam/roles/builtin-roles.js';
import { readTableVersions } from '../../src/store/table-versions.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact, type Tx } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const T0 = '2024-01-01T00:00:00.000Z';

interface Binding {
  parent_uid: string;
  role_uid: string;
  mapping_uid: string | null;
}

describe('syncGroupBindings', () => {
  let store: Store;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let org: string;
  let sub: string;
  let reader: string;
  let writer: string;
  let provider: string;
  let other: string;
  /** The identity that creates the mappings: it may bind reader and writer at the organization. */
  let admin: string;
  const tx = <T>(work: (tx: Tx) => Promise<T>) => transact(store, work);
  const sync = (identity: string, idp: string, groups: string[]) => tx((t) => syncGroupBindings(t, identity, idp, groups));

  async function addIdentity(parent: string | null): Promise<string> {
    const uid = parent === null ? newRootUid() : newChildUid(parent);
    await tx((t) =>
      t
        .insertInto('identities')
        .values({
          uid,
          parent_uid: parent,
          name: `person-${uid.slice(-6)}`,
          description: '',
          company: '',
          email: '',
          relationship_type: 'claim_match',
          relationship: '{}',
          issuer: 'https://idp.example.com',
          subject: uid,
          last_seen_time: T0,
          create_time: T0,
          update_time: T0,
        })
        .execute(),
    );
    return uid;
  }

  async function addRole(name: string, capabilities = '[1605]'): Promise<string> {
    const uid = newChildUid(org);
    await tx((t) =>
      t.insertInto('roles').values({ uid, parent_uid: org, name, description: '', capabilities, builtin: 0, create_time: T0, update_time: T0 }).execute(),
    );
    return uid;
  }

  async function addProvider(): Promise<string> {
    const uid = newChildUid(org);
    await tx((t) =>
      t
        .insertInto('identity_providers')
        .values({
          uid,
          parent_uid: org,
          name: `idp-${uid.slice(-6)}`,
          description: '',
          default_role_uid: reader,
          issuer: 'https://idp.example.com',
          client_id: 'berth',
          client_secret: '',
          additional_scopes: '[]',
          groups_claim: '',
          pkce_enabled: 0,
          create_time: T0,
          update_time: T0,
        })
        .execute(),
    );
    return uid;
  }

  async function addMapping(idp: string, group: string, role: string, scope: string, createdBy: string | null = admin): Promise<string> {
    const uid = newChildUid(idp);
    await tx((t) =>
      t
        .insertInto('external_group_role_mappings')
        .values({ uid, parent_uid: idp, external_group_id: group, role_uid: role, scope_uid: scope, created_by: createdBy, create_time: T0, update_time: T0 })
        .execute(),
    );
    return uid;
  }

  /** Binds `role` to `identity` on `group` as an ordinary binding. */
  async function bind(identity: string, role: string, group: string): Promise<string> {
    const uid = newChildUid(group);
    await tx((t) =>
      t.insertInto('role_bindings').values({ uid, parent_uid: group, identity_uid: identity, role_uid: role, create_time: T0, update_time: T0 }).execute(),
    );
    return uid;
  }

  async function bindingsOf(identity: string): Promise<Binding[]> {
    const rows = await store.db
      .selectFrom('role_bindings')
      .select(['parent_uid', 'role_uid', 'mapping_uid'])
      .where('identity_uid', '=', identity)
      .orderBy('parent_uid')
      .orderBy('role_uid')
      .orderBy('mapping_uid')
      .execute();
    return rows.map((r) => ({ parent_uid: r.parent_uid, role_uid: r.role_uid, mapping_uid: r.mapping_uid ?? null }));
  }

  const sorted = (bs: Binding[]) =>
    [...bs].sort(
      (a, b) => a.parent_uid.localeCompare(b.parent_uid) || a.role_uid.localeCompare(b.role_uid) || String(a.mapping_uid).localeCompare(String(b.mapping_uid)),
    );

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-sync-'));
    databaseUrl = await freshDatabase();
    store = await openStore({ dataDir, databaseUrl });
    org = newRootUid();
    sub = newChildUid(org);
    await tx(async (t) => {
      await t
        .insertInto('groups')
        .values({ uid: org, parent_uid: null, name: 'sync.test', description: '', verified: 0, create_time: T0, update_time: T0 })
        .execute();
      await t
        .insertInto('groups')
        .values({ uid: sub, parent_uid: org, name: 'team', description: '', verified: 0, create_time: T0, update_time: T0 })
        .execute();
    });
    reader = await addRole('reader');
    writer = await addRole('writer');
    admin = await addIdentity(null);
    // role_bindings.create (401) and what reader and writer grant (repo.list, 1605).
    await bind(admin, await addRole('admin', '[401,1605]'), org);
  });
  after(async () => {
    await store.close();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    provider = await addProvider();
    other = await addProvider();
  });

  it("binds the roles of the person's mapped groups, marked with their mapping, and is idempotent", async () => {
    const person = await addIdentity(null);
    const eng = await addMapping(provider, 'eng', reader, org);
    const engSub = await addMapping(provider, 'eng', writer, sub);
    await addMapping(provider, 'ops', writer, org);
    const first = await sync(person, provider, ['eng', 'unmapped']);
    assert.equal(first.added.length, 2);
    assert.deepEqual(first.removed, []);
    const expected = sorted([
      { parent_uid: org, role_uid: reader, mapping_uid: eng },
      { parent_uid: sub, role_uid: writer, mapping_uid: engSub },
    ]);
    assert.deepEqual(await bindingsOf(person), expected);
    const again = await sync(person, provider, ['eng', 'eng']);
    assert.deepEqual(again, { added: [], removed: [] }, 'the same groups change nothing');
    assert.deepEqual(await bindingsOf(person), expected);
  });

  it('removes the bindings of groups the person left and adds those of groups joined', async () => {
    const person = await addIdentity(null);
    const eng = await addMapping(provider, 'eng', reader, org);
    const ops = await addMapping(provider, 'ops', writer, sub);
    await sync(person, provider, ['eng']);
    const moved = await sync(person, provider, ['ops']);
    assert.equal(moved.added.length, 1);
    assert.equal(moved.removed.length, 1);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: sub, role_uid: writer, mapping_uid: ops }]);
    const none = await sync(person, provider, []);
    assert.equal(none.removed.length, 1);
    assert.deepEqual(await bindingsOf(person), []);
    assert.ok(eng);
  });

  it('makes one binding when several mapped groups give the same role on the same group', async () => {
    const person = await addIdentity(null);
    const a = await addMapping(provider, 'a', reader, org);
    const b = await addMapping(provider, 'b', reader, org);
    await sync(person, provider, ['a', 'b']);
    const [only, ...rest] = await bindingsOf(person);
    assert.deepEqual(rest, []);
    assert.ok(only.mapping_uid === a || only.mapping_uid === b);
    // Leaving the group whose mapping made it keeps the role through the other one.
    const stillIn = only.mapping_uid === a ? 'b' : 'a';
    await sync(person, provider, [stillIn]);
    const now = await bindingsOf(person);
    assert.equal(now.length, 1);
    assert.equal(now[0].role_uid, reader);
    assert.equal(now[0].mapping_uid, stillIn === 'a' ? a : b);
  });

  it('never touches bindings made otherwise, and adds none where one already grants the role', async () => {
    const person = await addIdentity(null);
    await addMapping(provider, 'eng', reader, org);
    await addMapping(provider, 'eng', writer, org);
    await tx((t) =>
      t
        .insertInto('role_bindings')
        .values({ uid: newChildUid(org), parent_uid: org, identity_uid: person, role_uid: reader, mapping_uid: null, create_time: T0, update_time: T0 })
        .execute(),
    );
    const r = await sync(person, provider, ['eng']);
    assert.equal(r.added.length, 1, 'only the role not held yet');
    assert.deepEqual(
      await bindingsOf(person),
      sorted([
        { parent_uid: org, role_uid: reader, mapping_uid: null },
        { parent_uid: org, role_uid: writer, mapping_uid: (await bindingsOf(person)).find((b) => b.role_uid === writer)!.mapping_uid },
      ]),
    );
    await sync(person, provider, []);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: reader, mapping_uid: null }], 'the hand-made binding stays');
  });

  it("leaves another provider's bindings alone", async () => {
    const person = await addIdentity(null);
    const mine = await addMapping(provider, 'eng', reader, org);
    const theirs = await addMapping(other, 'eng', writer, sub);
    await sync(person, provider, ['eng']);
    await sync(person, other, ['eng']);
    assert.equal((await bindingsOf(person)).length, 2);
    await sync(person, provider, []);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: sub, role_uid: writer, mapping_uid: theirs }]);
    assert.ok(mine);
  });

  it('gives an identity scoped to a group nothing above that group', async () => {
    const scoped = await addIdentity(sub);
    await addMapping(provider, 'eng', reader, org);
    const inScope = await addMapping(provider, 'eng', writer, sub);
    await sync(scoped, provider, ['eng']);
    assert.deepEqual(await bindingsOf(scoped), [{ parent_uid: sub, role_uid: writer, mapping_uid: inScope }]);
  });

  it('replaces a mapping-made binding changed since (another role than its mapping gives)', async () => {
    const person = await addIdentity(null);
    const eng = await addMapping(provider, 'eng', reader, org);
    await sync(person, provider, ['eng']);
    await tx((t) => t.updateTable('role_bindings').set({ role_uid: writer }).where('identity_uid', '=', person).execute());
    const r = await sync(person, provider, ['eng']);
    assert.equal(r.removed.length, 1);
    assert.equal(r.added.length, 1);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: reader, mapping_uid: eng }]);
  });

  it('loses what a mapping gave when the mapping or its provider is deleted, and the change is versioned', async () => {
    const person = await addIdentity(null);
    const eng = await addMapping(provider, 'eng', reader, org);
    await addMapping(provider, 'ops', writer, org);
    await sync(person, provider, ['eng', 'ops']);
    assert.equal((await bindingsOf(person)).length, 2);
    const version = async () => Number((await readTableVersions(store.db)).get('role_bindings'));
    const v0 = await version();
    await tx((t) => t.deleteFrom('external_group_role_mappings').where('uid', '=', eng).execute());
    assert.deepEqual(
      (await bindingsOf(person)).map((b) => b.role_uid),
      [writer],
    );
    assert.ok((await version()) > v0, 'cached grants see the cascade');
    await tx((t) => t.deleteFrom('identity_providers').where('uid', '=', provider).execute());
    assert.deepEqual(await bindingsOf(person), []);
  });

  it('applies a mapping only while its creator could bind its role on its scope: deleted, unrecorded or stripped creators give nothing', async () => {
    const person = await addIdentity(null);
    const delegate = await addIdentity(null);
    const delegateBinding = await bind(delegate, await addRole('delegate', '[401,1605]'), sub);
    const byDelegate = await addMapping(provider, 'eng', writer, sub, delegate);
    const unrecorded = await addMapping(provider, 'eng', reader, sub, null);
    const byAdmin = await addMapping(provider, 'ops', reader, org);
    await sync(person, provider, ['eng', 'ops']);
    assert.deepEqual(
      await bindingsOf(person),
      sorted([
        { parent_uid: org, role_uid: reader, mapping_uid: byAdmin },
        { parent_uid: sub, role_uid: writer, mapping_uid: byDelegate },
      ]),
      'a mapping made before creators were recorded gives nothing',
    );
    assert.ok(unrecorded);
    // The delegate loses its binding: at the next sign in what its mapping gave goes.
    await tx((t) => t.deleteFrom('role_bindings').where('uid', '=', delegateBinding).execute());
    await sync(person, provider, ['eng', 'ops']);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: reader, mapping_uid: byAdmin }]);
    // A deleted creator vouches for nothing (its uid is cleared from the mapping).
    const gone = await addIdentity(null);
    await bind(gone, await addRole('gone', '[401,1605]'), org);
    const byGone = await addMapping(provider, 'dev', writer, org, gone);
    await sync(person, provider, ['dev']);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: writer, mapping_uid: byGone }]);
    await tx((t) => t.deleteFrom('identities').where('uid', '=', gone).execute());
    const [row] = await store.db.selectFrom('external_group_role_mappings').select('created_by').where('uid', '=', byGone).execute();
    assert.equal(row.created_by, null);
    await sync(person, provider, ['dev']);
    assert.deepEqual(await bindingsOf(person), []);
  });

  it("never takes an organization's last owner binding: that sync is refused and changes nothing", async () => {
    const allOfOwner = await addRole('all-of-owner', JSON.stringify(builtinRoleByName('owner')?.capabilities));
    const founder = await addIdentity(null);
    const founderBinding = await bind(founder, allOfOwner, org);
    const person = await addIdentity(null);
    const admins = await addMapping(provider, 'admins', allOfOwner, org, founder);
    await sync(person, provider, ['admins']);
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: allOfOwner, mapping_uid: admins }]);
    // The founder's own binding goes: the person's mapping-made binding is the organization's only owner
    // binding, and its mapping is void now, so the next sync would take it.
    await tx((t) => t.deleteFrom('role_bindings').where('uid', '=', founderBinding).execute());
    await assert.rejects(sync(person, provider, []), (e: ConnectError) => e.code === Code.FailedPrecondition && /owner/.test(e.rawMessage));
    assert.deepEqual(await bindingsOf(person), [{ parent_uid: org, role_uid: allOfOwner, mapping_uid: admins }]);
    await tx((t) => t.deleteFrom('role_bindings').where('identity_uid', '=', person).execute());
  });

  it('refuses an absurd number of groups and changes nothing', async () => {
    const person = await addIdentity(null);
    await addMapping(provider, 'g1', reader, org);
    await assert.rejects(
      sync(
        person,
        provider,
        Array.from({ length: 10_001 }, (_, i) => `g${i}`),
      ),
      RangeError,
    );
    assert.deepEqual(await bindingsOf(person), []);
  });
});
