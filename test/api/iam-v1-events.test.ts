// Every mutating /iam/v1 RPC writes the event its v2 twin writes: the same
// type (declared on both protos), group, subject and extensions, and the v2
// message as the body, since one implementation serves both. The cases are a
// table; the test fails when a mutating method of a berth.iam.v1 service, or
// of the legacy berth.events.v1.Identities, has none
// (test/api/event-emission.test.ts covers every other service).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { getOption, type DescMethod } from '@bufbuild/protobuf';
import { events } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { Identities as LegacyIdentities } from '../../src/gen/berth/events/v1/identities_pb.js';
import { GroupAccountAssociations } from '../../src/gen/berth/iam/v1/account_associations_pb.js';
import { ExternalGroupRoleMappings } from '../../src/gen/berth/iam/v1/external_group_role_mappings_pb.js';
import { GroupInvites } from '../../src/gen/berth/iam/v1/group_invites_pb.js';
import { Groups } from '../../src/gen/berth/iam/v1/groups_pb.js';
import { Identities } from '../../src/gen/berth/iam/v1/identities_pb.js';
import { IdentityProviders } from '../../src/gen/berth/iam/v1/identity_providers_pb.js';
import { RoleBindings } from '../../src/gen/berth/iam/v1/role_bindings_pb.js';
import { Roles } from '../../src/gen/berth/iam/v1/roles_pb.js';
import { Terms } from '../../src/gen/berth/iam/v1/terms_pb.js';
import { SERVICES } from '../../src/server/services.js';
import { identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { CLI, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { methodName, mutatingMethods } from '../harness/mutating-methods.js';

const VIEWER = '63921b2c44617e3f2603851537be0123af4a57d7';

interface Case {
  method: DescMethod;
  /** What the call needs, made before the outbox is read (its own events are not the case's). */
  setup?: () => Promise<void>;
  call: () => Promise<RestResult>;
  /** group, subject and the identityprovider extension of the event; 'none' when the method declares none. */
  expect: () => { group: string; subject: string; idp?: string } | 'none';
}

function serverFiles(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'berth-iam-v1-events-'));
  const terms = join(dir, 'terms.json');
  writeFileSync(terms, JSON.stringify({ documents: [{ id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/terms/v1' }] }));
  const key = join(dir, 'secrets.key');
  writeFileSync(key, randomBytes(32).toString('base64'), { mode: 0o600 });
  return ['--terms-file', terms, '--secrets-key-file', key];
}

describe('every mutating iam v1 RPC emits its v2 twin event', () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: serverFiles() },
  );
  const call = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const lastId = async () => Number((await sqlQuery(berth, 'select max(id) as id from event_outbox'))[0]?.id ?? 0);

  let folder = '';
  let gone = '';
  let identity = '';
  let member = '';
  let role = '';
  let binding = '';
  let provider = '';
  let mapping = '';
  let mapping2 = '';
  let invite = '';
  let scimEtag = '';
  let legacy = '';
  let asker = { uid: '', token: '' };
  let accessRequest = '';
  const at = () => ({ group: folder, subject: folder });

  const cases: Case[] = [
    {
      method: Groups.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/groups/${berth.orgUid}`, { name: 'v1-events' });
        folder = r.json?.id ?? '';
        return r;
      },
      expect: at,
    },
    { method: Groups.method.update, call: () => call('PUT', `/iam/v1/groups/${folder}`, { name: 'v1-events', description: 'x' }), expect: at },
    {
      method: Identities.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/identities/${folder}`, { name: 'bot', claimMatch: { issuer: 'https://ci.example', subject: 'bot' } });
        identity = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: identity }),
    },
    {
      method: Identities.method.update,
      call: () => call('PUT', `/iam/v1/identities/${identity}`, { name: 'bot', claimMatch: { issuer: 'https://ci.example', subject: 'bot2' } }),
      expect: () => ({ group: folder, subject: identity }),
    },
    {
      method: Roles.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/roles/${folder}`, { name: 'reader', capabilities: ['tag.list'] });
        role = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: role }),
    },
    {
      method: Roles.method.update,
      call: () => call('PUT', `/iam/v1/roles/${role}`, { name: 'reader', capabilities: ['tag.list', 'repo.list'] }),
      expect: () => ({ group: folder, subject: role }),
    },
    {
      method: RoleBindings.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/rolebindings/${folder}`, { identity, role: VIEWER });
        binding = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: binding }),
    },
    {
      method: RoleBindings.method.update,
      call: () => call('PUT', `/iam/v1/rolebindings/${binding}`, { role }),
      expect: () => ({ group: folder, subject: binding }),
    },
    {
      method: RoleBindings.method.createBatch,
      setup: async () => {
        member = (await identityWithRole(berth.url, token, folder, undefined, folder)).uid;
      },
      call: () => call('POST', `/iam/v1/rolebindings/batch/${folder}`, [{ identity: member, role: VIEWER }]),
      expect: at,
    },
    { method: RoleBindings.method.delete, call: () => call('DELETE', `/iam/v1/rolebindings/${binding}`), expect: () => ({ group: folder, subject: binding }) },
    {
      method: IdentityProviders.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/identityProviders/${folder}`, {
          name: 'sso',
          defaultRole: VIEWER,
          oidc: { issuer: 'https://idp.example.com', clientId: 'c' },
        });
        provider = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProviders.method.update,
      call: () =>
        call('PUT', `/iam/v1/identityProviders/${provider}`, { name: 'sso2', defaultRole: VIEWER, oidc: { issuer: 'https://idp.example.com', clientId: 'c' } }),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProviders.method.generateScimToken,
      call: async () => {
        const r = await call('POST', `/iam/v1/identityProviders/${provider}:generateScimToken`, {});
        scimEtag = r.json?.etag ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProviders.method.setScimEnabled,
      call: async () => {
        const r = await call('POST', `/iam/v1/identityProviders/${provider}:setScimEnabled`, { enabled: true, etag: scimEtag });
        scimEtag = r.json?.etag ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProviders.method.regenerateScimToken,
      call: () => call('POST', `/iam/v1/identityProviders/${provider}:regenerateScimToken`, { etag: scimEtag }),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProviders.method.revokeScimToken,
      call: () => call('POST', `/iam/v1/identityProviders/${provider}:revokeScimToken`, {}),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: ExternalGroupRoleMappings.method.create,
      setup: async () => {
        mapping2 = (await call('POST', `/iam/v2/externalGroupRoleMappings/${provider}`, { externalGroupId: 'ops', roleUid: VIEWER })).json.uid;
      },
      call: async () => {
        const r = await call('POST', `/iam/v1/externalGroupRoleMappings/${provider}`, { externalGroupId: 'eng', roleUidp: VIEWER });
        mapping = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: mapping, idp: provider }),
    },
    {
      method: ExternalGroupRoleMappings.method.delete,
      call: () => call('DELETE', `/iam/v1/externalGroupRoleMappings/${mapping}`),
      expect: () => ({ group: folder, subject: mapping, idp: provider }),
    },
    {
      method: ExternalGroupRoleMappings.method.batchDelete,
      call: () => call('POST', '/iam/v1/externalGroupRoleMappings:batchDelete', { parent: provider, names: [mapping2] }),
      expect: () => ({ group: folder, subject: provider, idp: provider }),
    },
    {
      method: IdentityProviders.method.delete,
      call: () => call('DELETE', `/iam/v1/identityProviders/${provider}`),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: GroupInvites.method.create,
      call: async () => {
        const r = await call('POST', `/iam/v1/group_invites/${folder}`, { role: VIEWER });
        invite = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: invite }),
    },
    { method: GroupInvites.method.delete, call: () => call('DELETE', `/iam/v1/group_invites/${invite}`), expect: () => ({ group: folder, subject: invite }) },
    {
      method: GroupAccountAssociations.method.create,
      call: () => call('POST', `/iam/v1/account_associations/${folder}`, { name: 'a', amazon: { account: '123456789012' } }),
      expect: at,
    },
    {
      method: GroupAccountAssociations.method.update,
      call: () => call('PUT', `/iam/v1/account_associations/${folder}`, { name: 'b', amazon: { account: '123456789012' } }),
      expect: at,
    },
    {
      method: GroupAccountAssociations.method.check,
      call: () => call('POST', `/iam/v1/account_associations/${folder}:check`, { accountType: 'GOOGLE' }),
      expect: () => 'none',
    },
    { method: GroupAccountAssociations.method.delete, call: () => call('DELETE', `/iam/v1/account_associations/${folder}`), expect: at },
    { method: Terms.method.acceptTerms, call: () => call('POST', `/iam/v1/terms/${folder}`, { documentIds: ['tos.v1'] }), expect: at },
    {
      method: Groups.method.requestGroupAccess,
      setup: async () => {
        // Someone of a verified domain, without a binding on the organization.
        const args = [CLI, 'admin', 'verify-domain', 'v1-events.example', '--data', berth.dataDir, '--org', berth.orgName];
        if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
        const verified = spawnSync(process.execPath, args, { encoding: 'utf8' });
        assert.equal(verified.status, 0, verified.stderr);
        asker = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
        await sqlQuery(berth, 'update identities set email = $1 where uid = $2', ['asker@v1-events.example', asker.uid]);
      },
      call: async () => {
        const r = await call('POST', `/iam/v1/groups/${berth.orgUid}:requestGroupAccess`, {}, asker.token);
        accessRequest = (await call('GET', `/iam/v2/groups/${berth.orgUid}:listAccessRequests`)).json?.groupAccessRequests?.[0]?.uid ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: accessRequest }),
    },
    {
      method: LegacyIdentities.method.create,
      call: async () => {
        const r = await call('POST', '/iam/v1/identities', { id: folder, issuer: 'https://ci.example', subject: 'legacy' });
        legacy = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: legacy }),
    },
    {
      method: LegacyIdentities.method.updateMetadata,
      call: () => call('PATCH', '/iam/v1/identities/metadata', { onboardingQuestions: { companyName: 'Berth' } }),
      // The caller's own identity: its group, or (root-level) its own uid.
      expect: () => ({ group: berth.ownerIdentity.split('/').slice(0, -1).join('/') || berth.ownerIdentity, subject: berth.ownerIdentity }),
    },
    { method: Identities.method.delete, call: () => call('DELETE', `/iam/v1/identities/${identity}`), expect: () => ({ group: folder, subject: identity }) },
    { method: Roles.method.delete, call: () => call('DELETE', `/iam/v1/roles/${role}`), expect: () => ({ group: folder, subject: role }) },
    {
      method: Groups.method.delete,
      setup: async () => {
        gone = (await call('POST', `/iam/v1/groups/${folder}`, { name: 'to-go' })).json.id;
      },
      call: () => call('DELETE', `/iam/v1/groups/${gone}`),
      expect: () => ({ group: gone, subject: gone }),
    },
  ];

  it('has a case for every mutating method of every berth.iam.v1 service and the legacy identities', () => {
    const served = mutatingMethods(SERVICES.map((e) => e.service))
      .map(methodName)
      .filter((n) => n.startsWith('berth.iam.v1.') || n.startsWith('berth.events.v1.Identities.'));
    const covered = new Set(cases.map((c) => methodName(c.method)));
    assert.deepEqual(
      served.filter((n) => !covered.has(n)),
      [],
      'add a case for these',
    );
    assert.equal(covered.size, cases.length, 'one case per method');
  });

  it('each writes exactly its declared event, with the v2 body', async () => {
    for (const c of cases) {
      const name = methodName(c.method);
      await c.setup?.();
      const before = await lastId();
      const r = await c.call();
      assert.equal(r.status, 200, `${name}: ${r.text}`);
      const rows = await sqlQuery(berth, 'select type, group_uid, subject, body_type, extensions from event_outbox where id > $1 order by id', [before]);
      const want = c.expect();
      if (want === 'none') {
        assert.deepEqual(rows, [], name);
        continue;
      }
      assert.equal(rows.length, 1, `${name}: ${rows.map((x) => x.type).join(', ')}`);
      const [row] = rows;
      assert.equal(row.type, getOption(c.method, events).type, name);
      assert.deepEqual([row.group_uid, row.subject], [want.group, want.subject], name);
      assert.deepEqual(JSON.parse(String(row.extensions)), { group: want.group, ...(want.idp ? { identityprovider: want.idp } : {}) }, name);
      assert.match(String(row.body_type), /^berth\.iam\.v2\./, name);
    }
  });
});
