// The Terraform provider's call sequences (reference §7) replayed step by
// step over gRPC under the deployed names, with its v2beta1 and v1 clients:
// update_mask "*" replaces the mutable fields of identities, roles, role
// bindings, identity providers and account associations; groups are updated
// with an explicit mask (Berth groups have no kind or status, so "*" never
// meets one and replaces name and description); v1 UpdateRepo and UpdateTag
// replace the whole object; a root group created over gRPC is visible to the
// creator's next token.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { Capability } from '../../src/gen/chainguard/capabilities/v1/capabilities_pb.js';
import { Subscriptions } from '../../src/gen/chainguard/platform/events/v1/subscriptions_pb.js';
import { Groups } from '../../src/gen/chainguard/platform/iam/v1/groups_pb.js';
import { Identities } from '../../src/gen/chainguard/platform/iam/v1/identities_pb.js';
import { AccountAssociationsService } from '../../src/gen/chainguard/platform/iam/v2beta1/account_associations_pb.js';
import { GroupInvitesService } from '../../src/gen/chainguard/platform/iam/v2beta1/group_invites_pb.js';
import { GroupsService } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { IdentitiesService } from '../../src/gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import { IdentityProvidersService } from '../../src/gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js';
import { RoleBindingsService } from '../../src/gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js';
import { RolesService } from '../../src/gen/chainguard/platform/iam/v2beta1/roles_pb.js';
import { Registry } from '../../src/gen/chainguard/platform/registry/v1/registry_pb.js';
import { BadRequestSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { grpcClient, ownerToken, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { seedImage } from '../harness/registry-content.js';

async function refused(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConnectError, String(err));
    return err;
  }
  assert.fail('the call succeeded');
}
const fieldsOf = (err: ConnectError) => err.findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => v.field);
const claim = (subject: string) => ({
  case: 'claimMatch' as const,
  value: { iss: { case: 'issuer' as const, value: 'https://ci.example' }, sub: { case: 'subject' as const, value: subject } },
});

describe('the Terraform provider over gRPC (reference §7)', { timeout: 180_000 }, () => {
  let berth: Berth;
  let token: string;
  /** A group each resource lives in, made as chainguard_group makes one. */
  let team: string;
  useBerth(
    async (b, t) => {
      berth = b;
      token = t;
      team = (await grpcClient(GroupsService, b.url, t).createGroup({ parent: b.orgUid, group: { name: 'tf-team' } })).uid;
    },
    { env: { BERTH_SECRETS_KEY: randomBytes(32).toString('base64') } },
  );
  const client = <S extends Parameters<typeof grpcClient>[0]>(s: S) => grpcClient(s, berth.url, token);
  const get = async (path: string) => (await rest(berth.url, 'GET', path, { token })).json;

  it('chainguard_group: a root group, visible to the next token through v1 Groups.List; updates by explicit mask', async () => {
    const groups = client(GroupsService);
    const org = await groups.createGroup({ group: { name: `tf-org-${randomBytes(3).toString('hex')}`, description: 'root' } });
    assert.doesNotMatch(org.uid, /\//);
    // The provider refreshes its token and polls v1 List{id} until the new organization shows.
    const next = ownerToken(berth.credentialsFile);
    const listed = await grpcClient(Groups, berth.url, next).list({ id: org.uid });
    assert.deepEqual(
      listed.items.map((g) => g.id),
      [org.uid],
    );
    assert.equal((await groups.getGroup({ uid: org.uid })).description, 'root');
    // Update: mask name, description, verified (verified is output-only here and ignored).
    const updated = await groups.updateGroup({
      group: { uid: org.uid, name: org.name, description: 'renamed by terraform', verified: true },
      updateMask: { paths: ['name', 'description', 'verified'] },
    });
    assert.equal(updated.description, 'renamed by terraform');
    assert.equal(updated.verified, false);
    // Berth groups have no kind or status: a mask naming kind names no field; "*" replaces name and description.
    assert.equal((await refused(groups.updateGroup({ group: { uid: org.uid, name: org.name }, updateMask: { paths: ['kind'] } }))).code, Code.InvalidArgument);
    const star = await groups.updateGroup({ group: { uid: org.uid, name: org.name }, updateMask: { paths: ['*'] } });
    assert.equal(star.description, '');
    await groups.deleteGroup({ uid: org.uid });
    assert.deepEqual((await grpcClient(Groups, berth.url, next).list({ id: org.uid })).items, []);
  });

  it('chainguard_identity, chainguard_role, chainguard_rolebinding: "*" replaces the mutable fields', async () => {
    const identities = client(IdentitiesService);
    const made = await identities.createIdentity({ parent: team, identity: { name: 'tf-robot', description: 'first', relationship: claim('tf-1') } });
    assert.equal((await identities.getIdentity({ uid: made.uid })).description, 'first');
    const replaced = await identities.updateIdentity({
      identity: { uid: made.uid, name: 'tf-robot-2', relationship: claim('tf-2') },
      updateMask: { paths: ['*'] },
    });
    assert.deepEqual([replaced.name, replaced.description], ['tf-robot-2', '']);
    assert.equal((await get(`/iam/v2/identities/${made.uid}`)).claimMatch.subject, 'tf-2');

    const roles = client(RolesService);
    // data chainguard_role: a managed role found by name, with no uidp filter.
    const viewer = (await roles.listRoles({ name: 'viewer' })).roles;
    assert.equal(viewer.length, 1);
    const role = await roles.createRole({ parent: team, role: { name: 'tf-role', description: 'd', capabilities: [Capability.CAP_REPO_LIST] } });
    assert.deepEqual((await roles.getRole({ uid: role.uid })).capabilities, [Capability.CAP_REPO_LIST]);
    const newRole = await roles.updateRole({
      role: { uid: role.uid, name: 'tf-role', capabilities: [Capability.CAP_IAM_GROUPS_LIST] },
      updateMask: { paths: ['*'] },
    });
    assert.deepEqual([newRole.description, newRole.capabilities], ['', [Capability.CAP_IAM_GROUPS_LIST]]);

    const bindings = client(RoleBindingsService);
    const binding = await bindings.createRoleBinding({ parent: team, roleBinding: { identityUid: made.uid, roleUid: viewer[0].uid } });
    assert.equal((await bindings.getRoleBinding({ uid: binding.uid })).identity?.uid, made.uid);
    // The provider sends the whole binding, identity_uid unchanged, under "*".
    const moved = await bindings.updateRoleBinding({
      roleBinding: { uid: binding.uid, identityUid: made.uid, roleUid: role.uid },
      updateMask: { paths: ['*'] },
    });
    assert.equal(moved.role?.uid, role.uid);
    const other = await identities.createIdentity({ parent: team, identity: { name: 'tf-other', relationship: claim('tf-3') } });
    const moveIdentity = await refused(
      bindings.updateRoleBinding({ roleBinding: { uid: binding.uid, identityUid: other.uid, roleUid: role.uid }, updateMask: { paths: ['*'] } }),
    );
    assert.deepEqual(fieldsOf(moveIdentity), ['role_binding.identity_uid']);
    await bindings.deleteRoleBinding({ uid: binding.uid });
    await roles.deleteRole({ uid: role.uid });
    await identities.deleteIdentity({ uid: made.uid });
    await identities.deleteIdentity({ uid: other.uid });
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roles/${role.uid}`, { token })).status, 404);
  });

  it('chainguard_identity_provider and chainguard_account_associations: "*" with the full configuration', async () => {
    const idps = client(IdentityProvidersService);
    const viewerUid = (await client(RolesService).listRoles({ name: 'viewer' })).roles[0].uid;
    const oidc = (issuer: string, secret: string) => ({
      case: 'oidc' as const,
      value: { issuer, clientId: 'tf', clientSecret: secret, additionalScopes: ['email'] },
    });
    const idp = await idps.createIdentityProvider({
      parent: team,
      identityProvider: { name: 'tf-sso', description: 'd', defaultRole: viewerUid, configuration: oidc('https://idp.example.com', 's1') },
    });
    const read = await idps.getIdentityProvider({ uid: idp.uid });
    assert.equal(read.configuration.case === 'oidc' && read.configuration.value.clientSecret, '', 'the secret is not read back');
    const replaced = await idps.updateIdentityProvider({
      identityProvider: { uid: idp.uid, name: 'tf-sso', defaultRole: viewerUid, configuration: oidc('https://idp2.example.com', 's2') },
      updateMask: { paths: ['*'] },
    });
    assert.equal(replaced.description, '');
    assert.equal(replaced.configuration.case === 'oidc' && replaced.configuration.value.issuer, 'https://idp2.example.com');
    await idps.deleteIdentityProvider({ uid: idp.uid });

    const accounts = client(AccountAssociationsService);
    const a = await accounts.createAccountAssociation({ parent: team, accountAssociation: { name: 'tf-clouds', amazon: { account: '123456789012' } } });
    assert.equal((await accounts.getAccountAssociation({ uid: a.uid })).amazon?.account, '123456789012');
    const b = await accounts.updateAccountAssociation({
      accountAssociation: {
        uid: a.uid,
        name: 'tf-clouds',
        azure: { tenantId: '0b7d1c5e-2f3a-4c6d-8e9f-0a1b2c3d4e5f', clientIds: { app: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f' } },
      },
      updateMask: { paths: ['*'] },
    });
    assert.equal(b.amazon, undefined, 'replaced, not merged');
    assert.equal(b.azure?.tenantId, '0b7d1c5e-2f3a-4c6d-8e9f-0a1b2c3d4e5f');
    await accounts.deleteAccountAssociation({ uid: a.uid });
  });

  it('chainguard_group_invite, chainguard_subscription and data chainguard_identity', async () => {
    const invites = client(GroupInvitesService);
    const viewerUid = (await client(RolesService).listRoles({ name: 'viewer' })).roles[0].uid;
    const invite = await invites.createGroupInvite({
      parent: team,
      groupInvite: { roleUid: viewerUid, email: 'dev@example.com', ttl: durationFromMs(86_400_000) },
    });
    assert.notEqual(invite.code, '');
    assert.equal((await invites.getGroupInvite({ uid: invite.uid })).email, 'dev@example.com');
    await invites.deleteGroupInvite({ uid: invite.uid });

    const subs = client(Subscriptions);
    const sub = await subs.create({ parentId: team, subscription: { sink: 'https://hooks.example.com/tf' } });
    assert.deepEqual(
      (await subs.list({ id: sub.id })).items.map((s) => s.sink),
      ['https://hooks.example.com/tf'],
    );
    await subs.delete({ id: sub.id });
    assert.deepEqual((await subs.list({ id: sub.id })).items, []);

    // Identities.Lookup{issuer, subject}: the uid the user identity has or will get on sign-in, as v2 LookupIdentity answers.
    const pair = { issuer: 'https://accounts.example', subject: 'dev-1' };
    const v1 = await client(Identities).lookup(pair);
    assert.equal(v1.id, (await client(IdentitiesService).lookupIdentity(pair)).uid);
    assert.match(v1.id, /^[0-9a-f]{40}$/);
  });

  it('chainguard_image_repo and chainguard_image_tag: v1 UpdateRepo and UpdateTag replace the whole object', async () => {
    const registry = client(Registry);
    const repo = await registry.createRepo({ parentId: team, repo: { name: 'tf/app', readme: '# app', description: 'first' } });
    assert.equal((await registry.listRepos({ id: repo.id })).items[0]?.readme, '# app');
    const put = await registry.updateRepo({ id: repo.id, name: 'tf/app', readme: '# replaced' });
    assert.deepEqual([put.readme, put.description], ['# replaced', '']);
    assert.equal((await get(`/registry/v2/repos/${repo.id}`)).description, '');

    // The provider sends no digest on create; a Berth tag names a manifest, so that is INVALID_ARGUMENT on digest.
    const noDigest = await refused(registry.createTag({ repoId: repo.id, tag: { name: 'v1', deprecated: false } }));
    assert.equal(noDigest.code, Code.InvalidArgument);
    assert.ok(
      fieldsOf(noDigest)?.some((f) => f.endsWith('digest')),
      String(fieldsOf(noDigest)),
    );
    const digest = await seedImage(berth, repo.id, { layers: [100] });
    const tag = await registry.createTag({ repoId: repo.id, tag: { name: 'v1', digest, deprecated: true } });
    assert.equal((await registry.listTags({ id: tag.id })).items[0]?.deprecated, true);
    const replaced = await registry.updateTag({ id: tag.id, name: 'v1', digest });
    assert.equal(replaced.deprecated, false, 'an omitted field is cleared');
    await registry.deleteTag({ id: tag.id });
    await registry.deleteRepo({ id: repo.id });
    assert.deepEqual((await registry.listRepos({ id: repo.id })).items, []);
  });
});
