// /iam/v1 beside /iam/v2, part 2: identity providers, group invites, account
// associations, external group role mappings and terms. Each v1 operation
// runs through REST and gRPC on the same data as its v2 twin, with the v1
// shapes pinned against the reference's field names.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Code } from '@connectrpc/connect';
import {
  AccountAssociationsCheckRequest_AccountType,
  AccountAssociationsStatus_State,
  GroupAccountAssociations,
} from '../../src/gen/berth/iam/v1/account_associations_pb.js';
import { ExternalGroupRoleMappings } from '../../src/gen/berth/iam/v1/external_group_role_mappings_pb.js';
import { GroupInvites } from '../../src/gen/berth/iam/v1/group_invites_pb.js';
import { IdentityProviders } from '../../src/gen/berth/iam/v1/identity_providers_pb.js';
import { Terms } from '../../src/gen/berth/iam/v1/terms_pb.js';
import { grpcClient, identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER = '63921b2c44617e3f2603851537be0123af4a57d7';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const OIDC = { issuer: 'https://idp.example.com', clientId: 'berth' };

function serverFiles(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'berth-iam-v1-'));
  const terms = join(dir, 'terms.json');
  writeFileSync(terms, JSON.stringify({ documents: [{ id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/terms/v1' }] }));
  const key = join(dir, 'secrets.key');
  writeFileSync(key, randomBytes(32).toString('base64'), { mode: 0o600 });
  return ['--terms-file', terms, '--secrets-key-file', key];
}

describe('iam v1 beside v2: providers, invites, associations, mappings, terms', () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: serverFiles() },
  );
  const api = (method: string, path: string, body?: unknown) => rest(berth.url, method, path, { token, body });
  const ok = (r: RestResult) => {
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const group = async (name: string) => ok(await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name })).uid as string;
  const invalid = (r: RestResult, field: string) => {
    assert.equal(r.status, 400, r.text);
    const bad = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    assert.ok(
      bad?.fieldViolations.some((v: { field: string }) => v.field === field),
      r.text,
    );
  };

  it('identity providers: create, PUT (the secret kept when left empty), list and delete', async () => {
    const folder = await group('v1-idps');
    const body = { name: 'corp-sso', description: 'd', defaultRole: VIEWER, oidc: { ...OIDC, clientSecret: 's3cret', groupsClaim: 'groups' } };
    const created = ok(await api('POST', `/iam/v1/identityProviders/${folder}`, body));
    const id = created.id as string;
    assert.deepEqual(created, {
      id,
      name: 'corp-sso',
      description: 'd',
      defaultRole: VIEWER,
      oidc: { ...OIDC, additionalScopes: [], groupsClaim: 'groups', pkceEnabled: false },
    });
    assert.equal(ok(await api('GET', `/iam/v2/identityProviders/${id}`)).name, 'corp-sso');
    const secret = async () => (await sqlQuery(berth, 'select client_secret from identity_providers where uid = $1', [id]))[0]?.client_secret as string;
    const sealed = await secret();
    assert.ok(sealed !== '');
    // PUT replaces: description and groups claim reset; an empty secret keeps the stored one.
    const put = ok(await api('PUT', `/iam/v1/identityProviders/${id}`, { name: 'corp-sso', defaultRole: VIEWER, oidc: OIDC }));
    assert.deepEqual([put.description, put.oidc.groupsClaim], ['', '']);
    assert.equal(await secret(), sealed);
    assert.equal(ok(await api('GET', `/iam/v2/identityProviders/${id}`)).description, '');

    const client = grpcClient(IdentityProviders, berth.url, token);
    assert.deepEqual(
      (await client.list({ name: 'corp-sso', uidp: { descendantsOf: folder } })).items.map((p) => p.id),
      [id],
    );
    assert.deepEqual(ok(await api('GET', `/iam/v1/identityProviders?id=${encodeURIComponent(`${folder}/0123456789abcdef`)}`)), { items: [] });
    invalid(await api('POST', `/iam/v1/identityProviders/${folder}`, { name: 'x', defaultRole: 'nope', oidc: OIDC }), 'identity_provider.default_role');
    invalid(await api('GET', '/iam/v1/identityProviders?id=nope'), 'id');
    await client.delete({ id });
    assert.equal((await api('DELETE', `/iam/v1/identityProviders/${id}`)).status, 404);
  });

  it('group invites: create (the code once), list by group, id and key id, delete', async () => {
    const folder = await group('v1-invites');
    const created = ok(await api('POST', `/iam/v1/group_invites/${folder}`, { role: VIEWER, ttl: '3600s', singleUse: true }));
    assert.deepEqual(Object.keys(created).sort(), ['code', 'expiration', 'id', 'keyId', 'role']);
    assert.deepEqual([created.role.id, created.role.name], [VIEWER, 'viewer']);
    assert.ok(created.role.capabilities.includes('repo.list'));
    const v2 = ok(await api('GET', `/iam/v2/groupInvites/${created.id}`));
    assert.deepEqual([v2.keyId, v2.expirationTime, v2.singleUse], [created.keyId, created.expiration, true]);

    const listed = ok(await api('GET', `/iam/v1/group_invites?group=${folder}`)).items;
    assert.equal(listed.length, 1);
    assert.deepEqual(Object.keys(listed[0]).sort(), ['created_at', 'email', 'expiration', 'id', 'keyId', 'role', 'singleUse']);
    assert.match(listed[0].created_at, TIME);
    assert.equal(listed[0].code, undefined);

    const client = grpcClient(GroupInvites, berth.url, token);
    const second = await client.create({ group: folder, role: VIEWER, email: 'a@example.com' });
    assert.ok(second.code !== '');
    assert.deepEqual(
      (await client.list({ group: folder, keyId: second.keyId })).items.map((i) => i.id),
      [second.id],
    );
    assert.deepEqual(ok(await api('GET', `/iam/v1/group_invites?id=${encodeURIComponent(created.id)}&key_id=${second.keyId}`)), { items: [] });
    ok(await api('DELETE', `/iam/v1/group_invites/${created.id}`));
    await client.delete({ id: second.id });
    assert.deepEqual(ok(await api('GET', `/iam/v1/group_invites?group=${folder}`)), { items: [] });
    assert.equal((await api('GET', `/iam/v2/groupInvites/${created.id}`)).status, 404);

    invalid(await api('GET', '/iam/v1/group_invites?group=bad'), 'group');
    invalid(await api('GET', '/iam/v1/group_invites?id=bad'), 'id');
    const badTtl = await api('POST', `/iam/v1/group_invites/${folder}`, { role: VIEWER, ttl: '999999999s' });
    assert.equal(badTtl.status, 400, badTtl.text);
  });

  it('account associations: create, PUT (providers left out are reset), list, check and delete', async () => {
    const folder = await group('v1-accounts');
    const created = ok(await api('POST', `/iam/v1/account_associations/${folder}`, { name: 'cloud', amazon: { account: '123456789012' } }));
    assert.deepEqual(created, { group: folder, name: 'cloud', description: '', amazon: { account: '123456789012' } });
    assert.equal(ok(await api('GET', `/iam/v2/accountAssociations/${folder}`)).amazon.account, '123456789012');

    const google = { projectId: 'my-project', projectNumber: '123456' };
    const put = ok(await api('PUT', `/iam/v1/account_associations/${folder}`, { name: 'cloud', google }));
    assert.deepEqual(put, { group: folder, name: 'cloud', description: '', google });
    assert.equal(ok(await api('GET', `/iam/v2/accountAssociations/${folder}`)).amazon, undefined);

    // :check: Amazon is no longer configured (NotReady); Google is, and Berth cannot check it live.
    const check = ok(await api('POST', `/iam/v1/account_associations/${folder}:check`, { accountType: 'AMAZON' }));
    assert.equal(check.ready, 'NotReady');
    assert.equal((await api('POST', `/iam/v1/account_associations/${folder}:check`, { accountType: 'GOOGLE' })).json.code, Code.Unimplemented);

    const client = grpcClient(GroupAccountAssociations, berth.url, token);
    const status = await client.check({ group: folder, accountType: AccountAssociationsCheckRequest_AccountType.AZURE });
    assert.equal(status.ready, AccountAssociationsStatus_State.NotReady);
    assert.deepEqual(
      (await client.list({ group: folder })).items.map((a) => [a.group, a.google?.projectId]),
      [[folder, 'my-project']],
    );
    await client.update({ group: folder, name: 'renamed', google });
    assert.deepEqual(ok(await api('GET', '/iam/v1/account_associations?name=renamed')).items.length, 1);
    await client.delete({ group: folder });
    assert.deepEqual(ok(await api('GET', `/iam/v1/account_associations?group=${folder}`)), { items: [] });
    assert.equal((await api('DELETE', `/iam/v1/account_associations/${folder}`)).status, 404);
    await client.create({ group: folder, name: 'again', amazon: { account: '123456789012' } });
    ok(await api('DELETE', `/iam/v1/account_associations/${folder}`));

    invalid(await api('GET', '/iam/v1/account_associations?group=bad'), 'group');
    assert.equal((await api('POST', `/iam/v1/account_associations/${folder}`, { name: 'x', amazon: { account: '12' } })).status, 400);
    assert.equal((await api('POST', `/iam/v1/account_associations/${folder}:check`, { accountType: 'MARS' })).status, 400);
  });

  it('external group role mappings: create, get, list, delete and batch delete', async () => {
    const folder = await group('v1-mappings');
    const idp = ok(await api('POST', `/iam/v2/identityProviders/${folder}`, { name: 'sso', defaultRole: VIEWER, oidc: OIDC })).uid as string;
    const created = ok(await api('POST', `/iam/v1/externalGroupRoleMappings/${idp}`, { externalGroupId: 'eng', roleUidp: VIEWER }));
    assert.deepEqual(Object.keys(created).sort(), ['created_at', 'externalGroupId', 'id', 'identityProviderUidp', 'roleUidp', 'scope']);
    assert.deepEqual([created.identityProviderUidp, created.roleUidp, created.scope], [idp, VIEWER, folder]);
    assert.deepEqual(ok(await api('GET', `/iam/v1/externalGroupRoleMappings/${created.id}`)), created);
    assert.equal(ok(await api('GET', `/iam/v2/externalGroupRoleMappings/${created.id}`)).createTime, created.created_at);

    const client = grpcClient(ExternalGroupRoleMappings, berth.url, token);
    const second = await client.create({ parentId: idp, mapping: { externalGroupId: 'ops', roleUidp: VIEWER } });
    assert.equal((await client.get({ uid: second.id })).externalGroupId, 'ops');
    assert.deepEqual((await client.list({ identityProviderUidp: idp })).items.map((m) => m.externalGroupId).sort(), ['eng', 'ops']);
    const gone = ok(await api('POST', '/iam/v1/externalGroupRoleMappings:batchDelete', { parent: idp, names: [created.id] }));
    assert.deepEqual([gone.parent, gone.externalGroupRoleMappings.map((m: { id: string }) => m.id)], [idp, [created.id]]);
    await client.delete({ id: second.id });
    assert.deepEqual(ok(await api('GET', `/iam/v1/externalGroupRoleMappings?uidp.descendants_of=${idp}`)), { items: [] });
    assert.equal((await api('DELETE', `/iam/v1/externalGroupRoleMappings/${second.id}`)).status, 404);
    assert.equal((await api('GET', `/iam/v1/externalGroupRoleMappings/${second.id}`)).status, 404);
    assert.equal((await client.batchDelete({ parent: idp, names: [second.id] })).externalGroupRoleMappings.length, 0);

    invalid(await api('GET', '/iam/v1/externalGroupRoleMappings?identity_provider_uidp=bad'), 'identity_provider_uidp');
    invalid(await api('POST', '/iam/v1/externalGroupRoleMappings:batchDelete', { parent: idp, names: [] }), 'names');
    assert.equal((await api('POST', `/iam/v1/externalGroupRoleMappings/${idp}`, { externalGroupId: '', roleUidp: VIEWER })).status, 400);
  });

  it('terms: accept and list the acceptances in v1 over the same records as v2', async () => {
    const folder = await group('v1-terms');
    assert.deepEqual(ok(await api('POST', `/iam/v1/terms/${folder}`, { documentIds: ['tos.v1'] })), { group: folder, documentIds: ['tos.v1'] });
    const v2 = ok(await api('GET', `/iam/v2/terms/${folder}`)).termsAcceptances[0];
    const listed = ok(await api('GET', `/iam/v1/terms/${folder}`));
    assert.deepEqual(listed, { items: [{ docId: 'tos.v1', acceptedBy: v2.acceptedBy, orgUid: folder, created_at: v2.createTime }] });
    const client = grpcClient(Terms, berth.url, token);
    const sub = await group('v1-terms-other');
    assert.deepEqual((await client.acceptTerms({ group: sub, documentIds: ['tos.v1'] })).documentIds, ['tos.v1']);
    assert.deepEqual(
      (await client.listAccepted({ group: sub })).items.map((a) => a.orgUid),
      [sub],
    );
    invalid(await api('POST', `/iam/v1/terms/${folder}`, { documentIds: ['nope'] }), 'document_ids[0]');
    assert.equal((await api('GET', '/iam/v1/terms/bad')).status, 400);
  });
  it('lists without a uidp filter (invites, associations) show only what the caller may see', async () => {
    const mine = await group('v1-scope-mine');
    const other = await group('v1-scope-other');
    for (const g of [mine, other]) {
      ok(await api('POST', `/iam/v1/group_invites/${g}`, { role: VIEWER }));
      ok(await api('POST', `/iam/v1/account_associations/${g}`, { name: `aa-${g.slice(-4)}`, amazon: { account: '123456789012' } }));
    }
    // An owner of one subgroup sees that subgroup's items only, and nothing when it names the other.
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'owner', mine);
    const as = (path: string) => rest(berth.url, 'GET', path, { token: who.token });
    const invites = ok(await as('/iam/v1/group_invites')).items.map((i: { id: string }) => i.id);
    assert.ok(invites.length > 0 && invites.every((id: string) => id.startsWith(`${mine}/`)), invites.join());
    assert.deepEqual(ok(await as(`/iam/v1/group_invites?group=${other}`)), { items: [] });
    assert.deepEqual(
      ok(await as('/iam/v1/account_associations')).items.map((a: { group: string }) => a.group),
      [mine],
    );
    assert.deepEqual(ok(await as(`/iam/v1/account_associations?group=${other}`)), { items: [] });
    // No token: refused before anything is read.
    assert.equal((await rest(berth.url, 'GET', '/iam/v1/account_associations')).status, 401);
    assert.equal((await rest(berth.url, 'GET', `/iam/v1/group_invites?group=${mine}`)).status, 401);
  });
});
