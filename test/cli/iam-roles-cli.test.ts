// berth iam capabilities, roles, groups, identities and role-bindings, run as
// a child process against a real server: capabilities by either name, `get`
// for every resource, --parent/--role/--identity by name or uid, an ambiguous
// name refused with its candidates, and role binding update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { BerthCli } from '../harness/berth-cli.js';

interface Named {
  uid: string;
  name: string;
  capabilities?: string[];
}
interface Binding {
  uid: string;
  identity: Named;
  role: Named;
  group: Named;
}
interface CapabilityInfo {
  name: string;
  friendlyName: string;
  builtinRoles: string[];
}

describe('berth iam: capabilities, get, names and role binding update', () => {
  let berth: Berth;
  const cli = new BerthCli();
  const json = async <T>(...args: string[]): Promise<T> => JSON.parse(await cli.ok(...args, '-o', 'json')) as T;

  before(async () => {
    berth = await startBerth();
    await cli.ok('auth', 'login', '--credentials', berth.credentialsFile);
  });
  after(async () => {
    await berth.stop();
    cli.dispose();
  });

  it('lists capabilities with friendly names and built-in roles, without a server', async () => {
    const offline = new BerthCli();
    try {
      const table = await offline.ok('iam', 'capabilities', 'list');
      const [header, ...rows] = table.trimEnd().split('\n');
      assert.match(header, /^NAME\s+FRIENDLY NAME\s+BUILT-IN ROLES$/);
      const repoList = rows.find((r) => r.startsWith('CAP_REPO_LIST '));
      assert.match(repoList ?? '', /^CAP_REPO_LIST\s+repo\.list\s+\S*\bviewer\b/);
      const items = JSON.parse(await offline.ok('iam', 'capabilities', 'list', '-o', 'json')) as CapabilityInfo[];
      const byName = new Map(items.map((c) => [c.name, c]));
      assert.equal(byName.get('CAP_REPO_LIST')?.friendlyName, 'repo.list');
      assert.ok(byName.get('CAP_REPO_LIST')?.builtinRoles.includes('registry.pull'));
      const rolesCreate = byName.get('CAP_IAM_ROLES_CREATE');
      assert.equal(rolesCreate?.friendlyName, 'roles.create');
      assert.ok(rolesCreate?.builtinRoles.includes('owner'));
      assert.ok(!rolesCreate?.builtinRoles.includes('viewer'));
      assert.ok(!byName.has('CAP_INTERNAL'), 'internal-only capabilities are not grantable');
      assert.equal(rows.length, items.length);
      const ids = (await offline.ok('iam', 'capabilities', 'list', '-o', 'id')).trim().split('\n');
      assert.deepEqual(
        ids,
        items.map((c) => c.name),
      );
    } finally {
      offline.dispose();
    }
  });

  it('takes capabilities by friendly or enum name and refuses an unknown one before calling', async () => {
    const role = await json<Named>('iam', 'roles', 'create', 'cli-friendly', '--capabilities', 'repo.list, CAP_TAG_LIST,manifest_list');
    assert.deepEqual(role.capabilities, ['CAP_REPO_LIST', 'CAP_MANIFEST_LIST', 'CAP_TAG_LIST']);
    const updated = await json<Named>('iam', 'roles', 'update', role.uid, '--capabilities', 'tag.list');
    assert.deepEqual(updated.capabilities, ['CAP_TAG_LIST']);
    const err = await cli.fails('iam', 'roles', 'create', 'cli-bad', '--capabilities', 'repo.list,repo.nope');
    assert.match(err, /unknown capability "repo\.nope"/);
    assert.match(err, /berth iam capabilities list/);
    assert.equal((await cli.ok('iam', 'roles', 'list', '--name', 'cli-bad', '-o', 'id')).trim(), '');
    await cli.ok('iam', 'roles', 'delete', role.uid);
  });

  it('gets each resource by uid (and by name where it has one), in every output format', async () => {
    const group = await json<Named>('iam', 'groups', 'create', 'cli-get-team');
    const identity = await json<Named>(
      'iam',
      'identities',
      'create',
      'cli-get-robot',
      '--parent',
      'cli-get-team',
      '--issuer',
      'https://ci.example',
      '--subject',
      's',
    );
    assert.ok(identity.uid.startsWith(`${group.uid}/`), 'the --parent name resolved to the group');
    const role = await json<Named>('iam', 'roles', 'create', 'cli-get-role', '--parent', 'cli-get-team', '--capabilities', 'repo.list');
    assert.ok(role.uid.startsWith(`${group.uid}/`));
    const binding = await json<Binding>('iam', 'role-bindings', 'create', '--parent', 'cli-get-team', '--identity', 'cli-get-robot', '--role', 'cli-get-role');
    assert.equal(binding.group.uid, group.uid);
    assert.equal(binding.identity.uid, identity.uid);
    assert.equal(binding.role.uid, role.uid);

    for (const [kind, ref, uid] of [
      ['groups', 'cli-get-team', group.uid],
      ['groups', group.uid, group.uid],
      ['identities', 'cli-get-robot', identity.uid],
      ['identities', identity.uid, identity.uid],
      ['roles', 'cli-get-role', role.uid],
      ['roles', role.uid, role.uid],
      ['roles', 'viewer', '63921b2c44617e3f2603851537be0123af4a57d7'],
      ['role-bindings', binding.uid, binding.uid],
    ]) {
      assert.equal((await cli.ok('iam', kind, 'get', ref, '-o', 'id')).trim(), uid, `${kind} get ${ref}`);
      assert.equal((await json<Named>('iam', kind, 'get', ref)).uid, uid);
      const [header, row, extra] = (await cli.ok('iam', kind, 'get', ref)).trimEnd().split('\n');
      assert.match(header, /^UID\s+/);
      assert.ok(row.startsWith(uid), row);
      assert.equal(extra, undefined);
    }
    const missing = await cli.fails('iam', 'roles', 'get', 'cli-no-such-role');
    assert.match(missing, /no role named "cli-no-such-role"/);

    const listed = (await cli.ok('iam', 'role-bindings', 'list', '--parent', 'cli-get-team', '--role', 'cli-get-role', '-o', 'id')).trim();
    assert.equal(listed, binding.uid);
    assert.deepEqual((await cli.ok('iam', 'roles', 'list', '--parent', 'cli-get-team', '-o', 'id')).trim().split('\n'), [role.uid]);
    assert.deepEqual((await cli.ok('iam', 'identities', 'list', '--parent', 'cli-get-team', '-o', 'id')).trim().split('\n'), [identity.uid]);
  });

  it('refuses an ambiguous name, listing the candidates', async () => {
    const outer = await json<Named>('iam', 'groups', 'create', 'cli-dup');
    const holder = await json<Named>('iam', 'groups', 'create', 'cli-dup-holder');
    const inner = await json<Named>('iam', 'groups', 'create', 'cli-dup', '--parent', holder.uid);
    const err = await cli.fails('iam', 'roles', 'create', 'cli-x', '--parent', 'cli-dup', '--capabilities', 'repo.list');
    assert.match(err, /2 groups are named "cli-dup"; give the uid of one of them/);
    assert.ok(err.includes(outer.uid) && err.includes(inner.uid), err);
    // By uid it works.
    const r1 = await json<Named>('iam', 'roles', 'create', 'cli-dup-role', '--parent', outer.uid, '--capabilities', 'repo.list');
    const r2 = await json<Named>('iam', 'roles', 'create', 'cli-dup-role', '--parent', inner.uid, '--capabilities', 'repo.list');
    const who = await json<Named>('iam', 'identities', 'create', 'cli-dup-robot', '--parent', inner.uid, '--issuer', 'https://ci.example', '--subject', 'd');
    const roleErr = await cli.fails('iam', 'role-bindings', 'create', '--parent', inner.uid, '--identity', who.uid, '--role', 'cli-dup-role');
    assert.match(roleErr, /2 roles are named "cli-dup-role"/);
    assert.ok(roleErr.includes(r1.uid) && roleErr.includes(r2.uid), roleErr);
    const getErr = await cli.fails('iam', 'groups', 'get', 'cli-dup');
    assert.ok(getErr.includes(outer.uid) && getErr.includes(inner.uid), getErr);
    // update and delete refuse an ambiguous name too, and change nothing
    assert.match(await cli.fails('iam', 'roles', 'delete', 'cli-dup-role'), /2 roles are named "cli-dup-role"/);
    assert.equal((await cli.ok('iam', 'roles', 'list', '--name', 'cli-dup-role', '-o', 'id')).trim().split('\n').length, 2);
  });

  it('updates and deletes groups, identities and roles named by name', async () => {
    const group = await json<Named>('iam', 'groups', 'create', 'cli-byname-team');
    const renamed = await json<Named>('iam', 'groups', 'update', 'cli-byname-team', '--description', 'by name');
    assert.equal(renamed.uid, group.uid);
    const role = await json<Named>('iam', 'roles', 'create', 'cli-byname-role', '--parent', group.uid, '--capabilities', 'repo.list');
    const changed = await json<Named>('iam', 'roles', 'update', 'cli-byname-role', '--capabilities', 'tag.list');
    assert.equal(changed.uid, role.uid);
    assert.deepEqual(changed.capabilities, ['CAP_TAG_LIST']);
    const who = await json<Named>('iam', 'identities', 'create', 'cli-byname-robot', '--parent', group.uid, '--issuer', 'https://ci.example', '--subject', 'n');
    assert.equal((await json<Named>('iam', 'identities', 'update', 'cli-byname-robot', '--description', 'named')).uid, who.uid);
    await cli.ok('iam', 'identities', 'delete', 'cli-byname-robot');
    await cli.ok('iam', 'roles', 'delete', 'cli-byname-role');
    await cli.ok('iam', 'groups', 'delete', 'cli-byname-team');
    assert.match(await cli.fails('iam', 'groups', 'get', group.uid), /not found|NOT_FOUND|404/i);
    assert.match(await cli.fails('iam', 'roles', 'delete', 'cli-byname-role'), /no role named "cli-byname-role"/);
  });

  it('updates a role binding to another role named by name', async () => {
    const who = await json<Named>('iam', 'identities', 'create', 'cli-upd-robot', '--issuer', 'https://ci.example', '--subject', 'u');
    const binding = await json<Binding>('iam', 'role-bindings', 'create', '--identity', who.uid, '--role', 'viewer');
    const updated = await json<Binding>('iam', 'role-bindings', 'update', binding.uid, '--role', 'editor');
    assert.equal(updated.uid, binding.uid);
    assert.equal(updated.role.name, 'editor');
    assert.equal((await json<Binding>('iam', 'role-bindings', 'get', binding.uid)).role.name, 'editor');
    const table = await cli.ok('iam', 'role-bindings', 'update', binding.uid, '--role', 'registry.pull');
    assert.match(table, /cli-upd-robot\s+registry\.pull/);
  });
});
