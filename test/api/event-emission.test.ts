// Every change emits its event, on a real server (SQLite, or PostgreSQL with
// BERTH_TEST_PG): each mutating IAM, registry and auth RPC is called once,
// and exactly one new outbox row must follow, with the type the method
// declares, the group and subject of what changed, the caller as actor and
// the body the method's v2 message (the resource, or the request of a
// delete). Calls that fail — bad input, no permission, a constraint that
// rolls the transaction back — and calls that change nothing add no row.
// The cases are a table; the test fails when it misses a mutating method of
// a served service (the events domain's own are tested with it, the iam v1
// twins and the legacy berth.events.v1.Identities in iam-v1-events.test.ts), so a new
// RPC needs a case here.
import type { Selectable } from 'kysely';
import type { EventOutboxTable } from '../../src/events/events-tables.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getOption, type DescMethod } from '@bufbuild/protobuf';
import '../../src/events/events-tables.js';
import { EventAttributes_Audience, events } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { AuthService } from '../../src/gen/berth/auth/v1/auth_pb.js';
import { AccountAssociationsService } from '../../src/gen/berth/iam/v2/account_associations_pb.js';
import { ExternalGroupRoleMappingsService } from '../../src/gen/berth/iam/v2/external_group_role_mappings_pb.js';
import { GroupInvitesService } from '../../src/gen/berth/iam/v2/group_invites_pb.js';
import { GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { IdentitiesService } from '../../src/gen/berth/iam/v2/identities_pb.js';
import { IdentityProvidersService } from '../../src/gen/berth/iam/v2/identity_providers_pb.js';
import { RoleBindingsService } from '../../src/gen/berth/iam/v2/role_bindings_pb.js';
import { RolesService } from '../../src/gen/berth/iam/v2/roles_pb.js';
import { TermsService } from '../../src/gen/berth/iam/v2/terms_pb.js';
import { RegistryService as RegistryV1Service } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { TagsService } from '../../src/gen/berth/registry/v2/tags_pb.js';
import { AdvisoriesService as AdvisoriesV1Service } from '../../src/gen/berth/vulnerabilities/v1/advisories_pb.js';
import { SERVICES } from '../../src/server/services.js';
import type { Store } from '../../src/store/store.js';
import { grpcClient, identityWithRole, ownerToken, rest, type RestResult } from '../harness/api-client.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { methodName, mutatingMethods } from '../harness/mutating-methods.js';
import { openBerthStore, seedImage } from '../harness/registry-content.js';

/** The descriptors of the services the server serves. */
const SERVED = SERVICES.map((e) => e.service);

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

/** What one successful call must have written. */
interface Expected {
  group: string;
  subject: string;
  /** Defaults to the owner. */
  actor?: string;
  /** Extensions besides group. */
  extensions?: Record<string, string>;
}

interface Case {
  method: DescMethod;
  /** Calls whose own events are not this case's (creating what the call needs). */
  setup?: () => Promise<void>;
  call: () => Promise<RestResult>;
  /** The event, or 'none' when the method declares none. */
  expect: () => Expected | 'none';
  /** Further checks on the body. */
  body?: (body: Record<string, unknown>) => void;
}

type OutboxRow = Omit<Selectable<EventOutboxTable>, 'event_id' | 'create_time'>;

describe('every mutating RPC emits its event', () => {
  let berth: Berth;
  let store: Store;
  let token: string;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
    const terms = join(dir, 'terms.json');
    writeFileSync(terms, JSON.stringify({ documents: [{ id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/terms/v1' }] }));
    const key = join(dir, 'secrets.key');
    writeFileSync(key, randomBytes(32).toString('base64'), { mode: 0o600 });
    berth = await startBerth({ extraArgs: ['--terms-file', terms, '--secrets-key-file', key] });
    token = ownerToken(berth.credentialsFile);
    store = await openBerthStore(berth);
  });
  after(async () => {
    await store?.close();
    await berth?.stop();
  });

  const lastId = async (): Promise<number> => {
    const r = await store.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(r?.id ?? 0);
  };
  const rowsAfter = (id: number): Promise<OutboxRow[]> =>
    store.db.selectFrom('event_outbox').selectAll().where('id', '>', id).orderBy('id').execute() as Promise<OutboxRow[]>;
  const call = (method: string, path: string, body?: unknown, tok = token) => rest(berth.url, method, path, { token: tok, body });
  const ok = (r: RestResult, what: string): RestResult => {
    assert.ok(r.status === 200, `${what}: ${r.status} ${r.text}`);
    return r;
  };

  /** Runs `run` and asserts it failed (or changed nothing) and wrote no event. */
  const noEvent = async (what: string, run: () => Promise<RestResult>, status: number) => {
    const before = await lastId();
    const r = await run();
    assert.equal(r.status, status, `${what}: ${r.text}`);
    assert.deepEqual(
      (await rowsAfter(before)).map((e) => e.type),
      [],
      `${what} wrote an event`,
    );
  };

  // What the cases create, in order.
  let folder = '';
  let emptyGroup = '';
  let identity = '';
  let role = '';
  let binding = '';
  let provider = '';
  let mapping = '';
  let mapping2 = '';
  let scimEtag = '';
  let invite = '';
  let invite2 = '';
  let member: { uid: string; token: string } = { uid: '', token: '' };
  let repo = '';
  let tag = '';
  let digest = '';
  let advisory = '';
  let advisoryEvent = '';
  let repoV1 = '';
  let tagV1 = '';
  let digestV1 = '';
  let accessRequest = '';
  const askers: Record<string, { uid: string; token: string }> = {};
  const ownerGroup = () => berth.ownerIdentity.split('/').slice(0, -1).join('/') || berth.ownerIdentity;

  const cases: Case[] = [
    {
      method: GroupsService.method.createGroup,
      call: async () => {
        const r = await call('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'events-folder' });
        folder = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: folder }),
    },
    {
      method: GroupsService.method.updateGroup,
      call: () => call('PATCH', `/iam/v2/groups/${folder}`, { description: 'changed' }),
      expect: () => ({ group: folder, subject: folder }),
      body: (b) => assert.equal(b.description, 'changed'),
    },
    {
      method: IdentitiesService.method.createIdentity,
      call: async () => {
        const r = await call('POST', `/iam/v2/identities/${folder}`, { name: 'bot', claimMatch: { issuer: 'https://ci.example', subject: 'bot' } });
        identity = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: identity }),
    },
    {
      method: IdentitiesService.method.updateIdentity,
      call: () => call('PATCH', `/iam/v2/identities/${identity}`, { description: 'a bot' }),
      expect: () => ({ group: folder, subject: identity }),
    },
    {
      method: IdentitiesService.method.updateIdentityMetadata,
      call: () => call('PATCH', '/iam/v2/identities:updateIdentityMetadata', { identityMetadata: { company: 'Berth' } }),
      // The caller's own identity: its group, or (root-level) its own uid.
      expect: () => ({ group: ownerGroup(), subject: berth.ownerIdentity }),
      body: (b) => assert.deepEqual([b.uid, b.company], [berth.ownerIdentity, 'Berth']),
    },
    {
      method: GroupsService.method.requestGroupAccess,
      setup: async () => {
        // Two people of a verified domain, without a binding on the organization.
        const args = [CLI, 'admin', 'verify-domain', 'events.example', '--data', berth.dataDir, '--org', berth.orgName];
        if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
        const verified = spawnSync(process.execPath, args, { encoding: 'utf8' });
        assert.equal(verified.status, 0, verified.stderr);
        for (const who of ['asker', 'denied']) {
          askers[who] = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
          await sqlQuery(berth, 'update identities set email = $1 where uid = $2', [`${who}@events.example`, askers[who].uid]);
        }
      },
      call: async () => {
        const r = await call('POST', `/iam/v2/groups/${berth.orgUid}:requestGroupAccess`, {}, askers.asker.token);
        accessRequest = (await call('GET', `/iam/v2/groups/${berth.orgUid}:listAccessRequests`)).json?.groupAccessRequests?.[0]?.uid ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: accessRequest, actor: askers.asker.uid }),
      // It answers {}: the body is the request; the subject is the access request made.
      body: (b) => assert.deepEqual(b, { groupUid: berth.orgUid }),
    },
    {
      method: GroupsService.method.approveGroupAccessRequest,
      call: () => call('POST', `/iam/v2/groups/${accessRequest}:approveAccessRequest`, {}),
      // One event, the request's; its body names the binding made.
      expect: () => ({ group: berth.orgUid, subject: accessRequest }),
      body: (b) => assert.match(String(b.roleBindingUid), new RegExp(`^${berth.orgUid}/`)),
    },
    {
      method: GroupsService.method.denyGroupAccessRequest,
      setup: async () => {
        ok(await call('POST', `/iam/v2/groups/${berth.orgUid}:requestGroupAccess`, {}, askers.denied.token), 'request');
        const listed = await call('GET', `/iam/v2/groups/${berth.orgUid}:listAccessRequests?state=STATE_PENDING`);
        accessRequest = listed.json.groupAccessRequests[0].uid;
      },
      call: () => call('POST', `/iam/v2/groups/${accessRequest}:denyAccessRequest`, {}),
      expect: () => ({ group: berth.orgUid, subject: accessRequest }),
      body: (b) => assert.equal(b.state, 'STATE_DENIED'),
    },
    {
      method: RolesService.method.createRole,
      call: async () => {
        const r = await call('POST', `/iam/v2/roles/${folder}`, { name: 'tag-reader', capabilities: ['CAP_TAG_LIST'] });
        role = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: role }),
    },
    {
      method: RolesService.method.updateRole,
      call: () => call('PATCH', `/iam/v2/roles/${role}`, { capabilities: ['CAP_TAG_LIST', 'CAP_REPO_LIST'] }),
      expect: () => ({ group: folder, subject: role }),
    },
    {
      method: RoleBindingsService.method.createRoleBinding,
      call: async () => {
        const r = await call('POST', `/iam/v2/roleBindings/${folder}`, { identityUid: identity, roleUid: VIEWER_UID });
        binding = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: binding }),
    },
    {
      method: RoleBindingsService.method.updateRoleBinding,
      call: () => call('PATCH', `/iam/v2/roleBindings/${binding}`, { roleUid: role }),
      expect: () => ({ group: folder, subject: binding }),
    },
    {
      method: RoleBindingsService.method.batchCreateRoleBindings,
      call: () =>
        call('POST', '/iam/v2/roleBindings:batchCreate', { parent: folder, roleUid: VIEWER_UID, requests: [{ roleBinding: { identityUid: identity } }] }),
      // One event for the batch, about the group the bindings are made in.
      expect: () => ({ group: folder, subject: folder }),
      body: (b) => assert.equal((b.roleBindings as unknown[]).length, 1),
    },
    {
      method: RoleBindingsService.method.deleteRoleBinding,
      call: () => call('DELETE', `/iam/v2/roleBindings/${binding}`),
      expect: () => ({ group: folder, subject: binding }),
      body: (b) => assert.deepEqual(b, { uid: binding }),
    },
    {
      method: IdentityProvidersService.method.createIdentityProvider,
      call: async () => {
        const body = { name: 'sso', defaultRole: VIEWER_UID, oidc: { issuer: 'https://idp.example.com', clientId: 'berth', clientSecret: 'not-in-the-event' } };
        const r = await call('POST', `/iam/v2/identityProviders/${folder}`, body);
        provider = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
      body: (b) => assert.ok(!JSON.stringify(b).includes('not-in-the-event'), 'the client secret is not in the event'),
    },
    {
      method: IdentityProvidersService.method.updateIdentityProvider,
      call: () => call('PATCH', `/iam/v2/identityProviders/${provider}`, { description: 'corporate' }),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: ExternalGroupRoleMappingsService.method.createExternalGroupRoleMapping,
      call: async () => {
        const r = await call('POST', `/iam/v2/externalGroupRoleMappings/${provider}`, { externalGroupId: 'eng', roleUid: VIEWER_UID });
        mapping = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: mapping, extensions: { identityprovider: provider } }),
    },
    {
      method: ExternalGroupRoleMappingsService.method.deleteExternalGroupRoleMapping,
      call: () => call('DELETE', `/iam/v2/externalGroupRoleMappings/${mapping}`),
      expect: () => ({ group: folder, subject: mapping, extensions: { identityprovider: provider } }),
    },
    {
      method: ExternalGroupRoleMappingsService.method.batchDeleteExternalGroupRoleMappings,
      setup: async () => {
        mapping2 = ok(await call('POST', `/iam/v2/externalGroupRoleMappings/${provider}`, { externalGroupId: 'ops', roleUid: VIEWER_UID }), 'mapping').json.uid;
      },
      call: () => call('POST', '/iam/v2/externalGroupRoleMappings:batchDelete', { parent: provider, names: [mapping2] }),
      expect: () => ({ group: folder, subject: provider, extensions: { identityprovider: provider } }),
      body: (b) =>
        assert.deepEqual(
          (b.externalGroupRoleMappings as { uid: string }[]).map((m) => m.uid),
          [mapping2],
        ),
    },
    {
      method: IdentityProvidersService.method.generateScimToken,
      call: async () => {
        const r = await call('POST', `/iam/v2/identityProviders/${provider}:generateScimToken`, {});
        scimEtag = r.json?.etag ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
      body: (b) => assert.ok(!JSON.stringify(b).includes('berthscim_'), 'the token is not in the event'),
    },
    {
      method: IdentityProvidersService.method.setScimEnabled,
      call: async () => {
        const r = await call('POST', `/iam/v2/identityProviders/${provider}:setScimEnabled`, { enabled: true, etag: scimEtag });
        scimEtag = r.json?.etag ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: provider }),
      body: (b) => assert.equal(b.enabled, true),
    },
    {
      method: IdentityProvidersService.method.regenerateScimToken,
      call: () => call('POST', `/iam/v2/identityProviders/${provider}:regenerateScimToken`, { etag: scimEtag }),
      expect: () => ({ group: folder, subject: provider }),
      body: (b) => assert.ok(!JSON.stringify(b).includes('berthscim_'), 'the token is not in the event'),
    },
    {
      method: IdentityProvidersService.method.revokeScimToken,
      call: () => call('POST', `/iam/v2/identityProviders/${provider}:revokeScimToken`, {}),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: IdentityProvidersService.method.deleteIdentityProvider,
      call: () => call('DELETE', `/iam/v2/identityProviders/${provider}`),
      expect: () => ({ group: folder, subject: provider }),
    },
    {
      method: GroupInvitesService.method.createGroupInvite,
      call: async () => {
        const r = await call('POST', `/iam/v2/groupInvites/${folder}`, { roleUid: VIEWER_UID, ttl: '3600s', email: 'kim@example.com' });
        invite = r.json?.code ?? '';
        invite2 = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: invite2 }),
      // Whoever reads the event cannot accept the invite, nor learn whom it was for.
      body: (b) => {
        assert.equal(b.uid, invite2);
        assert.ok(!b.code && !b.keyId && !b.email, JSON.stringify(b));
        assert.ok(!JSON.stringify(b).includes(invite));
      },
    },
    {
      method: AuthService.method.register,
      setup: async () => {
        member = await identityWithRole(berth.url, token, folder, undefined, folder);
        // The invite was for kim@example.com; this one is for anybody.
        invite = ok(await call('POST', `/iam/v2/groupInvites/${folder}`, { roleUid: VIEWER_UID, ttl: '3600s' }), 'invite').json.code;
      },
      call: () => call('POST', '/auth/v1/register', { code: invite }, member.token),
      expect: () => ({ group: folder, subject: member.uid, actor: member.uid }),
      body: (b) => assert.deepEqual(b, { identity: member.uid, group: folder }),
    },
    {
      method: GroupInvitesService.method.deleteGroupInvite,
      call: () => call('DELETE', `/iam/v2/groupInvites/${invite2}`),
      expect: () => ({ group: folder, subject: invite2 }),
    },
    {
      method: AccountAssociationsService.method.createAccountAssociation,
      call: () => call('POST', `/iam/v2/accountAssociations/${folder}`, { name: 'clouds', amazon: { account: '123456789012' } }),
      expect: () => ({ group: folder, subject: folder }),
    },
    {
      method: AccountAssociationsService.method.updateAccountAssociation,
      call: () => call('PATCH', `/iam/v2/accountAssociations/${folder}`, { description: 'prod' }),
      expect: () => ({ group: folder, subject: folder }),
    },
    {
      method: AccountAssociationsService.method.checkAccountAssociation,
      call: () => call('POST', `/iam/v2/accountAssociations/${folder}:checkAccountAssociation`, { providerType: 'ACCOUNT_PROVIDER_TYPE_GOOGLE' }),
      expect: () => 'none',
    },
    {
      method: AccountAssociationsService.method.deleteAccountAssociation,
      call: () => call('DELETE', `/iam/v2/accountAssociations/${folder}`),
      expect: () => ({ group: folder, subject: folder }),
    },
    {
      method: TermsService.method.acceptTerms,
      call: () => call('POST', `/iam/v2/terms/${folder}`, { documentIds: ['tos.v1'] }),
      expect: () => ({ group: folder, subject: folder }),
      body: (b) => assert.deepEqual(b, { group: folder, documentIds: ['tos.v1'] }),
    },
    {
      method: ReposService.method.createRepo,
      call: async () => {
        const r = await call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'events/app' });
        repo = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: repo }),
    },
    {
      method: ReposService.method.updateRepo,
      call: () => call('PATCH', `/registry/v2/repos/${repo}`, { description: 'the app' }),
      expect: () => ({ group: berth.orgUid, subject: repo }),
    },
    {
      method: ReposService.method.updateRepoReadme,
      call: () => call('PATCH', `/registry/v2/repos/${repo}/readme`, { content: '# app' }),
      expect: () => ({ group: berth.orgUid, subject: repo }),
      body: (b) => assert.deepEqual(b, { uid: repo, content: '# app' }),
    },
    {
      method: TagsService.method.createTag,
      setup: async () => {
        digest = await seedImage(berth, repo);
      },
      call: async () => {
        const r = await call('POST', `/registry/v2/tags/${repo}`, { name: 'v1', digest });
        tag = r.json?.uid ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: tag }),
      body: (b) => assert.equal(b.digest, digest),
    },
    {
      method: TagsService.method.deleteTag,
      call: () => call('DELETE', `/registry/v2/tags/${tag}`),
      expect: () => ({ group: berth.orgUid, subject: tag }),
    },
    {
      method: ReposService.method.deleteRepo,
      call: () => call('DELETE', `/registry/v2/repos/${repo}`),
      expect: () => ({ group: berth.orgUid, subject: repo }),
    },
    // The v1 registry RPCs write v2's events, bodies included (their annotations name the v2 message).
    {
      method: RegistryV1Service.method.createRepo,
      call: async () => {
        const r = await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'events/v1app', readme: '# v1' });
        repoV1 = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: repoV1 }),
      body: (b) => assert.equal(b.name, 'events/v1app'),
    },
    {
      method: RegistryV1Service.method.updateRepo,
      call: () => call('PUT', `/registry/v1/repos/${repoV1}`, { name: 'events/v1app', description: 'put' }),
      expect: () => ({ group: berth.orgUid, subject: repoV1 }),
      body: (b) => assert.equal(b.description, 'put'),
    },
    {
      method: RegistryV1Service.method.createTag,
      setup: async () => {
        digestV1 = await seedImage(berth, repoV1);
      },
      call: async () => {
        const r = await call('POST', `/registry/v1/tags/${repoV1}`, { name: 'v1', digest: digestV1 });
        tagV1 = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: berth.orgUid, subject: tagV1 }),
      body: (b) => assert.equal(b.digest, digestV1),
    },
    {
      method: RegistryV1Service.method.updateTag,
      setup: async () => {
        digestV1 = await seedImage(berth, repoV1);
      },
      call: () => call('PUT', `/registry/v1/tags/${tagV1}`, { name: 'v1', digest: digestV1 }),
      expect: () => ({ group: berth.orgUid, subject: tagV1 }),
      body: (b) => assert.equal(b.digest, digestV1),
    },
    {
      method: RegistryV1Service.method.deleteTag,
      call: () => call('DELETE', `/registry/v1/tags/${tagV1}`),
      expect: () => ({ group: berth.orgUid, subject: tagV1 }),
    },
    {
      method: RegistryV1Service.method.deleteRepo,
      call: () => call('DELETE', `/registry/v1/repos/${repoV1}`),
      expect: () => ({ group: berth.orgUid, subject: repoV1 }),
    },
    {
      method: AdvisoriesV1Service.method.create,
      call: async () => {
        const r = await call('POST', '/vulnerabilities/v1/advisories', {
          parentId: folder,
          advisory: {
            artifactType: 'apk',
            artifactName: 'events-pkg',
            artifactArchitecture: 'x86_64',
            componentName: 'events-pkg',
            componentType: 'apk',
            componentLocation: './PKGINFO',
            aliases: ['CVE-2024-0001'],
          },
        });
        advisory = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: advisory }),
      body: (b) => assert.equal(b.id, advisory),
    },
    {
      method: AdvisoriesV1Service.method.update,
      call: () =>
        call('PUT', `/vulnerabilities/v1/advisories/${advisory}`, {
          artifactType: 'apk',
          artifactName: 'events-pkg',
          artifactArchitecture: 'x86_64',
          componentName: 'events-lib',
          componentType: 'go-module',
          componentLocation: '/usr/bin/x',
          aliases: ['CVE-2024-0002'],
        }),
      expect: () => ({ group: folder, subject: advisory }),
      body: (b) => assert.deepEqual(b.aliases, ['CVE-2024-0002']),
    },
    {
      method: AdvisoriesV1Service.method.createAdvisoryEvent,
      call: async () => {
        const r = await call('POST', `/vulnerabilities/v1/advisories/${advisory}/events`, { advisoryEvent: { fixed: { fixedVersion: '1.0.0-r1' } } });
        advisoryEvent = r.json?.id ?? '';
        return r;
      },
      expect: () => ({ group: folder, subject: advisoryEvent }),
      body: (b) => assert.equal(b.status, 'PENDING'),
    },
    {
      method: AdvisoriesV1Service.method.updateAdvisoryEvent,
      // The author edits the payload of their pending event.
      call: () => call('PUT', `/vulnerabilities/v1/advisory_events/${advisoryEvent}`, { fixed: { fixedVersion: '1.0.1-r0' } }),
      expect: () => ({ group: folder, subject: advisoryEvent }),
      body: (b) => assert.deepEqual(b.fixed, { fixedVersion: '1.0.1-r0' }),
    },
    {
      method: AdvisoriesV1Service.method.delete,
      call: () => call('DELETE', `/vulnerabilities/v1/advisories/${advisory}`),
      expect: () => ({ group: folder, subject: advisory }),
      body: (b) => assert.deepEqual(b, { id: advisory }),
    },
    {
      method: RolesService.method.deleteRole,
      call: () => call('DELETE', `/iam/v2/roles/${role}`),
      expect: () => ({ group: folder, subject: role }),
    },
    {
      method: IdentitiesService.method.deleteIdentity,
      call: () => call('DELETE', `/iam/v2/identities/${identity}`),
      expect: () => ({ group: folder, subject: identity }),
    },
    {
      method: GroupsService.method.deleteGroup,
      setup: async () => {
        emptyGroup = ok(await call('POST', `/iam/v2/groups/${folder}`, { name: 'to-go' }), 'group').json.uid;
      },
      call: () => call('DELETE', `/iam/v2/groups/${emptyGroup}`),
      // The group's own uid, so subscriptions on its ancestors receive it.
      expect: () => ({ group: emptyGroup, subject: emptyGroup }),
    },
  ];

  it('has a case for every mutating method of every served service', () => {
    const covered = new Set(cases.map((c) => methodName(c.method)));
    const served = mutatingMethods(SERVED)
      .map(methodName)
      .filter((n) => !n.startsWith('berth.events.') && !n.startsWith('berth.iam.v1.')); // iam v1: test/api/iam-v1-events.test.ts
    assert.deepEqual(
      served.filter((n) => !covered.has(n)),
      [],
      'add a case for these',
    );
    assert.equal(covered.size, cases.length, 'one case per method');
  });

  for (const c of cases) {
    it(`${methodName(c.method)} writes ${getOption(c.method, events).type || 'no event'}`, async () => {
      await c.setup?.();
      const before = await lastId();
      ok(await c.call(), methodName(c.method));
      const rows = await rowsAfter(before);
      const want = c.expect();
      if (want === 'none') {
        assert.deepEqual(
          rows.map((r) => r.type),
          [],
        );
        return;
      }
      assert.equal(rows.length, 1, `one event, got ${rows.map((r) => r.type).join(', ')}`);
      const [row] = rows;
      const declared = getOption(c.method, events);
      assert.equal(row.type, declared.type);
      assert.equal(row.audience, declared.audience === EventAttributes_Audience.CUSTOMER ? 1 : 0);
      assert.equal(row.group_uid, want.group, 'group');
      assert.equal(row.subject, want.subject, 'subject');
      assert.deepEqual(JSON.parse(row.actor), { subject: want.actor ?? berth.ownerIdentity }, 'actor');
      assert.deepEqual(JSON.parse(row.extensions), { group: want.group, ...want.extensions }, 'extensions');
      // The body is the method's v2 message: what it returns, or its request when it returns nothing.
      const output = c.method.output.typeName;
      assert.equal(row.body_type, declared.body || (c.method.output.fields.length === 0 ? c.method.input.typeName : output));
      const body = JSON.parse(row.body) as Record<string, unknown>;
      if (typeof body.uid === 'string') assert.equal(body.uid, want.subject);
      c.body?.(body);
    });
  }

  it('a call through gRPC records the same event, with its caller', async () => {
    const before = await lastId();
    const client = grpcClient(GroupsService, berth.url, token);
    await client.updateGroup({ group: { uid: folder, description: 'over grpc' }, updateMask: { paths: ['description'] } });
    const rows = await rowsAfter(before);
    assert.deepEqual(
      rows.map((r) => [r.type, r.subject, JSON.parse(r.actor).subject]),
      [['api.iam.group.updated.v1', folder, berth.ownerIdentity]],
    );
  });

  it('a v1 create that meets a repo of its name updates it and writes repo.updated', async () => {
    const first = ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'events/v1twice' }), 'repo').json.id;
    const before = await lastId();
    ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'events/v1twice', description: 'again' }), 'create again');
    const rows = await rowsAfter(before);
    assert.deepEqual(
      rows.map((r) => [r.type, r.subject, r.body_type, JSON.parse(r.body).description]),
      [['api.platform.registry.repo.updated.v1', first, 'berth.registry.v2.Repo', 'again']],
    );
    await noEvent(
      'a v1 create with prevent_existing',
      () => call('POST', `/registry/v1/repos/${berth.orgUid}?preventExisting=true`, { name: 'events/v1twice' }),
      409,
    );
  });

  it('failed calls, and calls that change nothing, write no event', async () => {
    await noEvent('an invalid group', () => call('POST', `/iam/v2/groups/${berth.orgUid}`, { name: '' }), 400);
    const outsider = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    await noEvent(
      'a role binding without permission',
      () => call('POST', `/iam/v2/roleBindings/${folder}`, { identityUid: member.uid, roleUid: VIEWER_UID }, outsider.token),
      403,
    );
    // The delete ran, then the foreign key refused it: the rollback takes the event too.
    await noEvent('deleting a group that is not empty', () => call('DELETE', `/iam/v2/groups/${folder}`), 400);
    const inUse = ok(await call('POST', `/iam/v2/roles/${folder}`, { name: 'in-use', capabilities: ['CAP_TAG_LIST'] }), 'role').json.uid;
    ok(await call('POST', `/iam/v2/roleBindings/${folder}`, { identityUid: member.uid, roleUid: inUse }), 'binding');
    await noEvent('deleting a role in use', () => call('DELETE', `/iam/v2/roles/${inUse}`), 400);
    const r = ok(await call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'events/twice' }), 'repo').json.uid;
    await noEvent('a repo name taken', () => call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'events/twice' }), 409);
    await noEvent(
      'a tag naming a manifest the repo does not hold',
      () => call('POST', `/registry/v2/tags/${r}`, { name: 'v1', digest: `sha256:${'0'.repeat(64)}` }),
      400,
    );
    await noEvent(
      'an identity provider with a plain-http issuer',
      () =>
        call('POST', `/iam/v2/identityProviders/${folder}`, { name: 'x', defaultRole: VIEWER_UID, oidc: { issuer: 'http://idp.example.com', clientId: 'c' } }),
      400,
    );
    // Deleting what is already gone is NOT_FOUND and changes nothing.
    await noEvent('deleting a role binding again', () => call('DELETE', `/iam/v2/roleBindings/${binding}`), 404);
    await noEvent('deleting an invite again', () => call('DELETE', `/iam/v2/groupInvites/${invite2}`), 404);
    await noEvent('deleting an account association again', () => call('DELETE', `/iam/v2/accountAssociations/${folder}`), 404);
  });
});
