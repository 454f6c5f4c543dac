// The deployed API's own gRPC clients work against Berth (issue 30): a client
// generated from the alias protos (Berth's protos under the deployed package,
// service and method names) creates, reads, lists, updates and deletes every
// resource over gRPC (v2beta1) and Connect (v2), and each object is read back
// over REST and under the berth.* name. Errors carry the same
// google.rpc.Status details either way; a deployed field Berth lacks is
// ignored; reflection lists both names.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { create, type DescService } from '@bufbuild/protobuf';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Interceptor, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { Capability } from '../../src/gen/chainguard/capabilities/v1/capabilities_pb.js';
import { Subscriptions } from '../../src/gen/chainguard/platform/events/v1/subscriptions_pb.js';
import { SubscriptionsService } from '../../src/gen/chainguard/platform/events/v2/subscriptions_pb.js';
import { Groups } from '../../src/gen/chainguard/platform/iam/v1/groups_pb.js';
import { Identities } from '../../src/gen/chainguard/platform/iam/v1/identities_pb.js';
import * as accountsB from '../../src/gen/chainguard/platform/iam/v2beta1/account_associations_pb.js';
import * as invitesB from '../../src/gen/chainguard/platform/iam/v2beta1/group_invites_pb.js';
import * as groupsB from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import * as identitiesB from '../../src/gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import * as idpsB from '../../src/gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js';
import * as bindingsB from '../../src/gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js';
import * as rolesB from '../../src/gen/chainguard/platform/iam/v2beta1/roles_pb.js';
import * as accounts2 from '../../src/gen/chainguard/platform/iam/v2/account_associations_pb.js';
import * as invites2 from '../../src/gen/chainguard/platform/iam/v2/group_invites_pb.js';
import * as groups2 from '../../src/gen/chainguard/platform/iam/v2/groups_pb.js';
import * as identities2 from '../../src/gen/chainguard/platform/iam/v2/identities_pb.js';
import * as idps2 from '../../src/gen/chainguard/platform/iam/v2/identity_providers_pb.js';
import * as bindings2 from '../../src/gen/chainguard/platform/iam/v2/role_bindings_pb.js';
import * as roles2 from '../../src/gen/chainguard/platform/iam/v2/roles_pb.js';
import { PingService } from '../../src/gen/chainguard/platform/ping/v2beta1/ping_pb.js';
import { Registry } from '../../src/gen/chainguard/platform/registry/v1/registry_pb.js';
import * as reposB from '../../src/gen/chainguard/platform/registry/v2beta1/repos_pb.js';
import * as tagsB from '../../src/gen/chainguard/platform/registry/v2beta1/tags_pb.js';
import * as repos2 from '../../src/gen/chainguard/platform/registry/v2/repos_pb.js';
import * as tags2 from '../../src/gen/chainguard/platform/registry/v2/tags_pb.js';
import { GroupsService as BerthGroups } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { RolesService as BerthRoles } from '../../src/gen/berth/iam/v2/roles_pb.js';
import { TagsService as BerthTags } from '../../src/gen/berth/registry/v2/tags_pb.js';
import { BadRequestSchema, ErrorInfoSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { ServerReflection } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { seedImage } from '../harness/registry-content.js';

const SINK = 'https://hooks.example.com/deployed-names';

const bearer =
  (token: string): Interceptor =>
  (next) =>
  async (req) => {
    req.header.set('authorization', `Bearer ${token}`);
    return next(req);
  };

async function codeOf(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConnectError, String(err));
    return err;
  }
  assert.fail('the call succeeded');
}

describe('the deployed gRPC names', { timeout: 180_000 }, () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { env: { BERTH_SECRETS_KEY: randomBytes(32).toString('base64') } }, // identity providers keep a client secret
  );
  const get = async (path: string) => {
    const r = await rest(berth.url, 'GET', path, { token });
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.json;
  };
  const gone = async (path: string) => assert.equal((await rest(berth.url, 'GET', path, { token })).status, 404, path);

  for (const [protocol, flavor] of [
    ['gRPC', 'v2beta1'],
    ['Connect', 'v2'],
  ] as const) {
    it(`drives every resource over ${protocol} under chainguard.platform.*.${flavor} and v1, read back over REST and berth.*`, async () => {
      const transport: Transport =
        protocol === 'gRPC'
          ? createGrpcTransport({ baseUrl: berth.url, interceptors: [bearer(token)] })
          : createConnectTransport({ baseUrl: berth.url, httpVersion: '1.1', interceptors: [bearer(token)] });
      // The v2 protos are typed as their v2beta1 twins: the same messages under another version token.
      const pick = <S extends DescService>(beta: S, v2: DescService) => createClient((flavor === 'v2' ? v2 : beta) as S, transport);
      const groups = pick(groupsB.GroupsService, groups2.GroupsService);
      const identities = pick(identitiesB.IdentitiesService, identities2.IdentitiesService);
      const roles = pick(rolesB.RolesService, roles2.RolesService);
      const bindings = pick(bindingsB.RoleBindingsService, bindings2.RoleBindingsService);
      const idps = pick(idpsB.IdentityProvidersService, idps2.IdentityProvidersService);
      const invites = pick(invitesB.GroupInvitesService, invites2.GroupInvitesService);
      const accounts = pick(accountsB.AccountAssociationsService, accounts2.AccountAssociationsService);
      const repos = pick(reposB.ReposService, repos2.ReposService);
      const tags = pick(tagsB.TagsService, tags2.TagsService);
      const s = protocol.toLowerCase();

      // Group
      const group = await groups.createGroup({ parent: berth.orgUid, group: { name: `team-${s}`, description: 'made under the deployed name' } });
      assert.equal((await groups.getGroup({ uid: group.uid })).name, `team-${s}`);
      assert.deepEqual(
        (await groups.listGroups({ uidp: { childrenOf: berth.orgUid }, name: `team-${s}` })).groups.map((g) => g.uid),
        [group.uid],
      );
      await groups.updateGroup({ group: { uid: group.uid, name: `team-${s}`, description: 'renamed' }, updateMask: { paths: ['description'] } });
      assert.equal((await get(`/iam/v2/groups/${group.uid}`)).description, 'renamed');
      assert.equal((await grpcClient(BerthGroups, berth.url, token).getGroup({ uid: group.uid })).description, 'renamed');
      const v1Groups = await createClient(Groups, transport).list({ id: group.uid });
      assert.deepEqual(
        v1Groups.items.map((g) => [g.id, g.description]),
        [[group.uid, 'renamed']],
      );

      // Identity, and its lookup under both generations
      const subject = `ci-${s}`;
      const identity = await identities.createIdentity({
        parent: group.uid,
        identity: {
          name: `robot-${s}`,
          relationship: { case: 'claimMatch', value: { iss: { case: 'issuer', value: 'https://ci.example' }, sub: { case: 'subject', value: subject } } },
        },
      });
      assert.equal((await identities.getIdentity({ uid: identity.uid })).name, `robot-${s}`);
      assert.equal((await identities.listIdentities({ uidp: { childrenOf: group.uid } })).identities.length, 1);
      const query = `issuer=${encodeURIComponent('https://ci.example')}&subject=${subject}`;
      assert.equal(
        (await identities.lookupIdentity({ issuer: 'https://ci.example', subject })).uid,
        (await get(`/iam/v2/identities:lookupIdentity?${query}`)).uid,
      );
      const v1Lookup = await rest(berth.url, 'GET', `/iam/v1/identities/lookup?${query}`, { token });
      const v1Alias = createClient(Identities, transport).lookup({ issuer: 'https://ci.example', subject });
      if (v1Lookup.status === 200) assert.equal((await v1Alias).id, v1Lookup.json.id);
      else assert.equal((await codeOf(v1Alias)).code, Code.NotFound, v1Lookup.text);
      const replaced = await identities.updateIdentity({
        identity: {
          uid: identity.uid,
          name: `robot-${s}-2`,
          relationship: {
            case: 'claimMatch',
            value: { iss: { case: 'issuer', value: 'https://ci.example' }, sub: { case: 'subject', value: `${subject}-2` } },
          },
        },
        updateMask: { paths: ['*'] },
      });
      assert.equal(replaced.name, `robot-${s}-2`);
      assert.equal((await get(`/iam/v2/identities/${identity.uid}`)).claimMatch.subject, `${subject}-2`);

      // Roles and a role binding
      const role = await roles.createRole({ parent: group.uid, role: { name: `reader-${s}`, capabilities: [Capability.CAP_REPO_LIST] } });
      const role2 = await roles.createRole({ parent: group.uid, role: { name: `lister-${s}`, capabilities: [Capability.CAP_IAM_GROUPS_LIST] } });
      assert.deepEqual((await roles.getRole({ uid: role.uid })).capabilities, [Capability.CAP_REPO_LIST]);
      assert.equal((await roles.listRoles({ uidp: { childrenOf: group.uid } })).roles.length, 2);
      await roles.updateRole({
        role: { uid: role.uid, name: `reader-${s}`, description: 'reads repos', capabilities: [Capability.CAP_REPO_LIST, Capability.CAP_IAM_GROUPS_LIST] },
        updateMask: { paths: ['*'] },
      });
      assert.deepEqual((await get(`/iam/v2/roles/${role.uid}`)).capabilities, ['CAP_IAM_GROUPS_LIST', 'CAP_REPO_LIST']);
      assert.equal((await grpcClient(BerthRoles, berth.url, token).getRole({ uid: role.uid })).description, 'reads repos');
      const binding = await bindings.createRoleBinding({ parent: group.uid, roleBinding: { identityUid: identity.uid, roleUid: role.uid } });
      assert.equal((await bindings.getRoleBinding({ uid: binding.uid })).role?.uid, role.uid);
      assert.equal((await bindings.listRoleBindings({ uidp: { childrenOf: group.uid } })).roleBindings.length, 1);
      await bindings.updateRoleBinding({ roleBinding: { uid: binding.uid, identityUid: identity.uid, roleUid: role2.uid }, updateMask: { paths: ['*'] } });
      assert.equal((await get(`/iam/v2/roleBindings/${binding.uid}`)).role.uid, role2.uid);

      // Identity provider
      const idp = await idps.createIdentityProvider({
        parent: group.uid,
        identityProvider: {
          name: `sso-${s}`,
          defaultRole: role.uid,
          configuration: { case: 'oidc', value: { issuer: 'https://idp.example.com', clientId: 'berth', clientSecret: 'secret-1' } },
        },
      });
      assert.equal((await idps.getIdentityProvider({ uid: idp.uid })).name, `sso-${s}`);
      assert.equal((await idps.listIdentityProviders({ uidp: { childrenOf: group.uid } })).identityProviders.length, 1);
      await idps.updateIdentityProvider({
        identityProvider: {
          uid: idp.uid,
          name: `sso-${s}`,
          defaultRole: role.uid,
          configuration: { case: 'oidc', value: { issuer: 'https://idp2.example.com', clientId: 'berth-2', clientSecret: 'secret-2' } },
        },
        updateMask: { paths: ['*'] },
      });
      assert.equal((await get(`/iam/v2/identityProviders/${idp.uid}`)).oidc.issuer, 'https://idp2.example.com');

      // Group invite
      const invite = await invites.createGroupInvite({ parent: group.uid, groupInvite: { roleUid: role.uid, ttl: durationFromMs(3_600_000) } });
      assert.ok(invite.code !== '');
      assert.equal((await invites.getGroupInvite({ uid: invite.uid })).role?.uid, role.uid);
      assert.equal((await invites.listGroupInvites({ uidp: { childrenOf: group.uid } })).groupInvites.length, 1);
      assert.equal((await get(`/iam/v2/groupInvites/${invite.uid}`)).uid, invite.uid);

      // Account association
      const assoc = await accounts.createAccountAssociation({
        parent: group.uid,
        accountAssociation: { name: `clouds-${s}`, amazon: { account: '123456789012' } },
      });
      assert.equal((await accounts.getAccountAssociation({ uid: assoc.uid })).amazon?.account, '123456789012');
      assert.equal(
        (await accounts.listAccountAssociations({ uidp: { childrenOf: berth.orgUid } })).accountAssociations.some((a) => a.uid === assoc.uid),
        true,
      );
      await accounts.updateAccountAssociation({
        accountAssociation: { uid: assoc.uid, name: `clouds-${s}`, google: { projectId: 'berth-test-1', projectNumber: '123456789' } },
        updateMask: { paths: ['*'] },
      });
      const assocRest = await get(`/iam/v2/accountAssociations/${assoc.uid}`);
      assert.equal(assocRest.amazon, undefined, 'the full replacement cleared amazon');
      assert.equal(assocRest.google.projectId, 'berth-test-1');

      // Repos and tags, v2 generation
      const repo = await repos.createRepo({ parent: group.uid, repo: { name: `app-${s}`, description: 'v2 repo' } });
      assert.equal((await repos.getRepo({ uid: repo.uid })).name, `app-${s}`);
      assert.equal((await repos.listRepos({ uidp: { childrenOf: group.uid } })).repos.length, 1);
      await repos.updateRepo({ repo: { uid: repo.uid, name: `app-${s}`, description: 'patched' }, updateMask: { paths: ['description'] } });
      assert.equal((await get(`/registry/v2/repos/${repo.uid}`)).description, 'patched');
      const digest = await seedImage(berth, repo.uid, { layers: [300] });
      const tag = await tags.createTag({ parent: repo.uid, tag: { name: 'latest', digest } });
      assert.equal((await tags.getTag({ uid: tag.uid })).digest, digest);
      assert.equal((await tags.listTags({ uidp: { childrenOf: repo.uid } })).tags.length, 1);
      assert.equal((await grpcClient(BerthTags, berth.url, token).getTag({ uid: tag.uid })).name, 'latest');
      await tags.deleteTag({ uid: tag.uid });
      await gone(`/registry/v2/tags/${tag.uid}`);

      // Repos and tags, v1 generation
      const registry = createClient(Registry, transport);
      const v1repo = await registry.createRepo({ parentId: group.uid, repo: { name: `legacy-${s}`, readme: '# hi' } });
      assert.equal((await registry.listRepos({ id: v1repo.id })).items[0]?.readme, '# hi');
      await registry.updateRepo({ id: v1repo.id, name: `legacy-${s}`, description: 'replaced' });
      const v1repoRest = await get(`/registry/v2/repos/${v1repo.id}`);
      assert.equal(v1repoRest.description, 'replaced');
      const v1digest = await seedImage(berth, v1repo.id, { layers: [400] });
      const v1tag = await registry.createTag({ repoId: v1repo.id, tag: { name: 'stable', digest: v1digest } });
      await registry.updateTag({ id: v1tag.id, name: 'stable', digest: v1digest, deprecated: true });
      assert.equal((await registry.listTags({ id: v1tag.id })).items[0]?.deprecated, true);
      assert.equal((await get(`/registry/v2/tags/${v1tag.id}`)).deprecated, true);
      await registry.deleteTag({ id: v1tag.id });
      await registry.deleteRepo({ id: v1repo.id });
      await gone(`/registry/v2/repos/${v1repo.id}`);

      // Subscriptions, both generations
      const subs = createClient(SubscriptionsService, transport);
      const sub = await subs.createSubscription({ parent: group.uid, subscription: { sink: SINK } });
      assert.equal((await subs.getSubscription({ uid: sub.uid })).sink, SINK);
      assert.equal((await subs.listSubscriptions({ uidp: { childrenOf: group.uid } })).subscriptions.length, 1);
      const v1subs = createClient(Subscriptions, transport);
      const v1sub = await v1subs.create({ parentId: group.uid, subscription: { sink: `${SINK}/v1` } });
      assert.deepEqual(
        (await v1subs.list({ id: v1sub.id })).items.map((x) => x.sink),
        [`${SINK}/v1`],
      );
      assert.equal((await get(`/events/v2/subscriptions/${v1sub.id}`)).sink, `${SINK}/v1`);
      await v1subs.delete({ id: v1sub.id });
      await subs.deleteSubscription({ uid: sub.uid });
      await gone(`/events/v2/subscriptions/${sub.uid}`);

      // Deletes, children first
      await repos.deleteRepo({ uid: repo.uid });
      await invites.deleteGroupInvite({ uid: invite.uid });
      await accounts.deleteAccountAssociation({ uid: assoc.uid });
      await idps.deleteIdentityProvider({ uid: idp.uid });
      await bindings.deleteRoleBinding({ uid: binding.uid });
      await roles.deleteRole({ uid: role.uid });
      await roles.deleteRole({ uid: role2.uid });
      await identities.deleteIdentity({ uid: identity.uid });
      for (const path of [
        `/registry/v2/repos/${repo.uid}`,
        `/iam/v2/groupInvites/${invite.uid}`,
        `/iam/v2/accountAssociations/${assoc.uid}`,
        `/iam/v2/identityProviders/${idp.uid}`,
        `/iam/v2/roleBindings/${binding.uid}`,
        `/iam/v2/roles/${role.uid}`,
        `/iam/v2/identities/${identity.uid}`,
      ])
        await gone(path);
      await groups.deleteGroup({ uid: group.uid });
      await gone(`/iam/v2/groups/${group.uid}`);
    });
  }

  it('answers gRPC-Web, and anonymous RPCs without a token', async () => {
    const web = createGrpcWebTransport({ baseUrl: berth.url, httpVersion: '1.1' });
    assert.equal((await createClient(PingService, web).ping({})).response, 'pong');
    const err = await codeOf(createClient(groupsB.GroupsService, web).listGroups({}));
    assert.equal(err.code, Code.Unauthenticated);
  });

  it('errors carry the same google.rpc.Status details as over REST and under berth.*', async () => {
    const alias = grpcClient(groupsB.GroupsService, berth.url, token);
    const missing = `${berth.orgUid}/0123456789abcdef`;
    const viaAlias = await codeOf(alias.getGroup({ uid: missing }));
    const viaBerth = await codeOf(grpcClient(BerthGroups, berth.url, token).getGroup({ uid: missing }));
    const viaRest = await rest(berth.url, 'GET', `/iam/v2/groups/${missing}`, { token });
    assert.equal(viaAlias.code, Code.NotFound);
    assert.deepEqual(viaAlias.findDetails(ErrorInfoSchema), viaBerth.findDetails(ErrorInfoSchema));
    const restInfo = viaRest.json.details.find((d: { '@type': string }) => d['@type'].endsWith('ErrorInfo'));
    assert.equal(viaAlias.findDetails(ErrorInfoSchema)[0]?.reason, restInfo.reason);
    assert.equal(viaAlias.findDetails(ErrorInfoSchema)[0]?.domain, restInfo.domain);

    const bad = await codeOf(alias.createGroup({ parent: berth.orgUid, group: { name: '' } }));
    assert.equal(bad.code, Code.InvalidArgument);
    const restBad = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: '' } });
    const restFields = restBad.json.details
      .find((d: { '@type': string }) => d['@type'].endsWith('BadRequest'))
      .fieldViolations.map((v: { field: string }) => v.field);
    assert.deepEqual(
      bad.findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => v.field),
      restFields,
    );

    // A caller bound only in a subgroup: denied at the organization, whether or not the group exists.
    const sub = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'errors-sub' } });
    const viewer = await identityWithRole(berth.url, token, sub.json.uid, 'viewer', sub.json.uid);
    const asViewer = grpcClient(groupsB.GroupsService, berth.url, viewer.token);
    const denied = await codeOf(asViewer.updateGroup({ group: { uid: berth.orgUid, name: 'x' }, updateMask: { paths: ['name'] } }));
    const deniedMissing = await codeOf(asViewer.updateGroup({ group: { uid: missing, name: 'x' }, updateMask: { paths: ['name'] } }));
    assert.equal(denied.code, Code.PermissionDenied);
    assert.equal(deniedMissing.code, Code.PermissionDenied);
    assert.equal(denied.findDetails(ErrorInfoSchema)[0]?.domain, 'iam.berth.dev');

    // A body that is not protobuf: Berth's INVALID_ARGUMENT in the service's domain, as under berth.*.
    const raw = await fetch(`${berth.url}/chainguard.platform.iam.v2beta1.GroupsService/GetGroup`, {
      method: 'POST',
      headers: { 'content-type': 'application/proto', authorization: `Bearer ${token}` },
      body: new Uint8Array([0x0a, 0xff]),
    });
    assert.equal(raw.status, 400);
  });

  it('ignores a field of the deployed message that Berth does not have (Group.kind, 8)', async () => {
    const alias = grpcClient(groupsB.GroupsService, berth.url, token);
    const group = create(groupsB.GroupSchema, { name: 'with-kind' });
    group.$unknown = [{ no: 8, wireType: 0, data: new Uint8Array([0x02]) }]; // kind = ORG_KIND_CUSTOMER
    const made = await alias.createGroup({ parent: berth.orgUid, group });
    assert.equal(made.name, 'with-kind');
    assert.equal(made.$unknown, undefined);
    assert.equal((await get(`/iam/v2/groups/${made.uid}`)).name, 'with-kind');
  });

  it('reflection lists both names and describes the alias', async () => {
    const client = createClient(ServerReflection, createGrpcTransport({ baseUrl: berth.url }));
    async function* requests() {
      yield { host: '', messageRequest: { case: 'listServices' as const, value: '' } };
      yield { host: '', messageRequest: { case: 'fileContainingSymbol' as const, value: 'chainguard.platform.registry.Registry' } };
    }
    const answers = [];
    for await (const res of client.serverReflectionInfo(requests())) answers.push(res);
    const names = answers[0].messageResponse.case === 'listServicesResponse' ? answers[0].messageResponse.value.service.map((x) => x.name) : [];
    for (const name of [
      'berth.iam.v2.GroupsService',
      'chainguard.platform.iam.v2beta1.GroupsService',
      'chainguard.platform.iam.v2.GroupsService',
      'chainguard.platform.iam.Groups',
    ])
      assert.ok(names.includes(name), name);
    assert.equal(answers[1].messageResponse.case, 'fileDescriptorResponse');
  });
});
