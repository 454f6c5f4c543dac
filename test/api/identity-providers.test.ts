// Identity providers over REST and gRPC on a real server: CRUD, the write-only
// client secret (never in a response, sealed at rest, kept by updates that do
// not name it), validation, permission before existence, the rules against
// handing out more than the caller holds, paging and what a provider blocks.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { IdentityProvidersService } from '../../src/gen/berth/iam/v2/identity_providers_pb.js';
import { grpcClient, identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';
const SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;

// biome-ignore lint/suspicious/noExplicitAny: error bodies are read as loose JSON
const violations = (body: any): string[] =>
  (body?.details ?? []).flatMap((d: { fieldViolations?: { field: string }[] }) => (d.fieldViolations ?? []).map((v) => v.field));

const oidc = (extra: Record<string, unknown> = {}) => ({ issuer: 'https://idp.example.com', clientId: 'berth', ...extra });

describe('iam identity providers', () => {
  let berth: Berth;
  let token: string;
  let keyDir: string;
  const path = (uid: string) => `/iam/v2/identityProviders/${uid}`;
  const storedSecret = async (uid: string) =>
    (await sqlQuery(berth, 'select client_secret from identity_providers where uid = $1', [uid]))[0]?.client_secret as string;

  before(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'berth-idp-key-'));
    const keyFile = join(keyDir, 'secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    berth = await startBerth({ extraArgs: ['--secrets-key-file', keyFile] });
    token = ownerToken(berth.credentialsFile);
  });
  after(async () => {
    await berth.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('creates, reads, lists, updates and deletes a provider; the client secret is never returned and is sealed at rest', async () => {
    const body = {
      name: 'corp-sso',
      description: 'Corporate sign in',
      defaultRole: VIEWER_UID,
      oidc: oidc({ clientSecret: SECRET, additionalScopes: ['groups', 'offline_access', 'groups'], groupsClaim: 'groups', pkceEnabled: true }),
    };
    const c = await rest(berth.url, 'POST', path(berth.orgUid), { token, body });
    assert.equal(c.status, 200, c.text);
    assert.match(c.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    assert.deepEqual(
      { ...c.json, uid: undefined, createTime: undefined, updateTime: undefined },
      {
        uid: undefined,
        name: 'corp-sso',
        description: 'Corporate sign in',
        defaultRole: VIEWER_UID,
        oidc: {
          issuer: 'https://idp.example.com',
          clientId: 'berth',
          additionalScopes: ['groups', 'offline_access'],
          groupsClaim: 'groups',
          pkceEnabled: true,
        },
        createTime: undefined,
        updateTime: undefined,
      },
    );
    assert.match(c.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(!c.text.includes(SECRET));
    const uid = c.json.uid as string;
    const sealed = await storedSecret(uid);
    assert.match(sealed, /^sealed:v1:/);
    assert.ok(!sealed.includes(SECRET));

    const got = await rest(berth.url, 'GET', path(uid), { token });
    // Get adds the SCIM state (test/scim/scim-tokens.test.ts); lists and writes leave it out.
    const { scim, ...provider } = got.json;
    assert.deepEqual(provider, c.json);
    assert.equal(scim.credentialState, 'CREDENTIAL_STATE_NOT_ISSUED');
    const listed = await rest(berth.url, 'GET', '/iam/v2/identityProviders?name=corp-sso', { token });
    assert.equal(listed.json.totalCount, '1');
    assert.deepEqual(listed.json.identityProviders, [c.json]);
    assert.ok(!got.text.includes(SECRET) && !listed.text.includes(SECRET));

    // An update that does not name the secret keeps it.
    const described = await rest(berth.url, 'PATCH', path(uid), { token, body: { description: 'changed' } });
    assert.equal(described.status, 200, described.text);
    assert.equal(described.json.description, 'changed');
    assert.deepEqual(described.json.oidc, c.json.oidc);
    assert.equal(await storedSecret(uid), sealed);
    // Replacing the OIDC configuration keeps the secret too (a client cannot send it back).
    const replaced = await rest(berth.url, 'PATCH', path(uid), { token, body: { oidc: { issuer: 'https://other.example.com', clientId: 'berth-2' } } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(replaced.json.oidc, {
      issuer: 'https://other.example.com',
      clientId: 'berth-2',
      additionalScopes: [],
      groupsClaim: '',
      pkceEnabled: false,
    });
    assert.equal(await storedSecret(uid), sealed);
    // oidc.<field> in the mask changes one field.
    const claim = await rest(berth.url, 'PATCH', `${path(uid)}?updateMask=oidc.groupsClaim`, {
      token,
      body: { oidc: { groupsClaim: 'roles', issuer: 'ignored' } },
    });
    assert.equal(claim.status, 200, claim.text);
    assert.equal(claim.json.oidc.groupsClaim, 'roles');
    assert.equal(claim.json.oidc.issuer, 'https://other.example.com');
    // A new secret replaces the old; naming the path with an empty value clears it.
    const NEW = `${SECRET}-2`;
    const rotated = await rest(berth.url, 'PATCH', `${path(uid)}?updateMask=oidc.client_secret`, { token, body: { oidc: { clientSecret: NEW } } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.ok(!rotated.text.includes(NEW));
    const resealed = await storedSecret(uid);
    assert.match(resealed, /^sealed:v1:/);
    assert.notEqual(resealed, sealed);
    const cleared = await rest(berth.url, 'PATCH', `${path(uid)}?updateMask=oidc.clientSecret`, { token, body: {} });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(await storedSecret(uid), '');

    const del = await rest(berth.url, 'DELETE', path(uid), { token });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.text, '{}');
    assert.equal((await rest(berth.url, 'GET', path(uid), { token })).status, 404);
    assert.equal((await rest(berth.url, 'DELETE', path(uid), { token })).status, 404);
  });

  it('serves the same over gRPC, never with the secret', async () => {
    const client = grpcClient(IdentityProvidersService, berth.url, token);
    const created = await client.createIdentityProvider({
      parent: berth.orgUid,
      identityProvider: {
        name: 'grpc-sso',
        defaultRole: VIEWER_UID,
        configuration: { case: 'oidc', value: { issuer: 'https://grpc.example.com', clientId: 'c', clientSecret: SECRET } },
      },
    });
    const secretOf = (p: typeof created) => (p.configuration.case === 'oidc' ? p.configuration.value.clientSecret : 'no oidc');
    assert.equal(secretOf(created), '');
    assert.equal(created.configuration.case === 'oidc' && created.configuration.value.issuer, 'https://grpc.example.com');
    assert.equal(secretOf(await client.getIdentityProvider({ uid: created.uid })), '');
    const page = await client.listIdentityProviders({ name: 'grpc-sso' });
    assert.equal(page.totalCount, 1n);
    assert.equal(secretOf(page.identityProviders[0]), '');
    const sealed = await storedSecret(created.uid);
    // gRPC without a mask: the fields set change; the secret, not sent, stays.
    const updated = await client.updateIdentityProvider({ identityProvider: { uid: created.uid, description: 'over grpc' } });
    assert.equal(updated.description, 'over grpc');
    assert.equal(secretOf(updated), '');
    assert.equal(await storedSecret(created.uid), sealed);
    await client.deleteIdentityProvider({ uid: created.uid });
    await assert.rejects(client.getIdentityProvider({ uid: created.uid }), (err: unknown) => err instanceof ConnectError && err.code === Code.NotFound);
  });

  it('validates the request and changes nothing', async () => {
    const bad = async (body: unknown, parent = berth.orgUid) => {
      const r = await rest(berth.url, 'POST', path(parent), { token, body });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 3);
      return violations(r.json);
    };
    assert.deepEqual(await bad({}), ['identity_provider.name', 'identity_provider.default_role', 'identity_provider.oidc']);
    const base = { name: 'valid-name', defaultRole: VIEWER_UID };
    assert.deepEqual(await bad({ ...base, name: 'ab', oidc: oidc() }), ['identity_provider.name']);
    for (const issuer of [
      'http://idp.example.com',
      'http://127.0.0.1:9000',
      'https://127.0.0.1:9000',
      'https://10.0.0.1',
      'https://169.254.169.254',
      'https://[::ffff:0:a9fe:a9fe]',
      'https://idp.example.com/?x=1',
      'https://user:pw@idp.example.com',
      'not a url',
      '',
    ]) {
      assert.deepEqual(await bad({ ...base, oidc: oidc({ issuer }) }), ['identity_provider.oidc.issuer'], issuer);
    }
    assert.deepEqual(await bad({ ...base, oidc: oidc({ clientId: '' }) }), ['identity_provider.oidc.client_id']);
    assert.deepEqual(await bad({ ...base, oidc: oidc({ groupsClaim: 'has space' }) }), ['identity_provider.oidc.groups_claim']);
    assert.deepEqual(await bad({ ...base, oidc: oidc({ additionalScopes: ['ok', 'not ok'] }) }), ['identity_provider.oidc.additional_scopes[1]']);
    assert.deepEqual(await bad({ ...base, oidc: oidc({ clientSecret: 'x'.repeat(1025) }) }), ['identity_provider.oidc.client_secret']);
    assert.deepEqual(await bad({ ...base, defaultRole: 'viewer', oidc: oidc() }), ['identity_provider.default_role']);
    // A role defined in a subgroup means nothing at the organization.
    const sub = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'idp-validation' } })).json.uid as string;
    const subRole = (await rest(berth.url, 'POST', `/iam/v2/roles/${sub}`, { token, body: { name: 'sub-role', capabilities: ['CAP_REPO_LIST'] } })).json.uid;
    assert.deepEqual(await bad({ ...base, defaultRole: subRole, oidc: oidc() }), ['identity_provider.default_role']);
    const nul = await rest(berth.url, 'POST', path(berth.orgUid), { token, body: { ...base, oidc: oidc({ clientSecret: 'a\u0000b' }) } });
    assert.equal(nul.status, 400, nul.text);
    // Well formed, but what it names does not exist.
    const noRole = await rest(berth.url, 'POST', path(berth.orgUid), {
      token,
      body: { ...base, defaultRole: `${berth.orgUid}/0000000000000000`, oidc: oidc() },
    });
    assert.equal(noRole.status, 404, noRole.text);
    const noGroup = await rest(berth.url, 'POST', path(`${berth.orgUid}/0000000000000000`), { token, body: { ...base, oidc: oidc() } });
    assert.equal(noGroup.status, 404, noGroup.text);
    const listed = await rest(berth.url, 'GET', '/iam/v2/identityProviders?name=valid-name', { token });
    assert.equal(listed.json.totalCount, '0', 'nothing was stored');

    const ok = await rest(berth.url, 'POST', path(berth.orgUid), { token, body: { ...base, oidc: oidc() } });
    assert.equal(ok.status, 200, ok.text);
    const patch = async (query: string, body: unknown) => rest(berth.url, 'PATCH', `${path(ok.json.uid)}${query}`, { token, body });
    const unknownPath = await patch('?updateMask=oidc.nope', {});
    assert.equal(unknownPath.status, 400);
    assert.deepEqual(violations(unknownPath.json), ['update_mask']);
    assert.deepEqual(violations((await patch('?updateMask=oidc.issuer', {})).json), ['identity_provider.oidc.issuer']);
    assert.deepEqual(violations((await patch('?updateMask=*', { name: 'valid-name', defaultRole: VIEWER_UID })).json), ['identity_provider.oidc']);
    const unchanged = await rest(berth.url, 'GET', path(ok.json.uid), { token });
    assert.deepEqual({ ...unchanged.json, scim: undefined }, { ...ok.json, scim: undefined });
  });

  it('checks permission before existence and needs role_bindings.create', async () => {
    const made = await rest(berth.url, 'POST', path(berth.orgUid), { token, body: { name: 'perm-idp', defaultRole: VIEWER_UID, oidc: oidc() } });
    const nobody = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const missing = `${berth.orgUid}/0000000000000000`;
    for (const uid of [made.json.uid, missing, `${'e'.repeat(40)}/0000000000000000`]) {
      for (const [method, p, body] of [
        ['GET', path(uid), undefined],
        ['PATCH', path(uid), { description: 'x' }],
        ['DELETE', path(uid), undefined],
      ] as const) {
        const r = await rest(berth.url, method, p, { token: nobody.token, body });
        assert.equal(r.status, 403, `${method} ${uid}: ${r.text}`);
      }
    }
    const list = await rest(berth.url, 'GET', '/iam/v2/identityProviders', { token: nobody.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.identityProviders, [], 'a caller sees only what it may');
    // identity_providers.create alone is not enough: a provider promises role bindings.
    await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'idp-only', capabilities: ['CAP_IAM_IDENTITY_PROVIDERS_CREATE'] } });
    const idpOnly = await identityWithRole(berth.url, token, berth.orgUid, 'idp-only', berth.orgUid);
    const noBind = await rest(berth.url, 'POST', path(berth.orgUid), {
      token: idpOnly.token,
      body: { name: 'nope-idp', defaultRole: VIEWER_UID, oidc: oidc() },
    });
    assert.equal(noBind.status, 403, noBind.text);
  });

  it('lets no one hand out, through a provider, a role stronger than their own', async () => {
    const caps = [
      'CAP_IAM_IDENTITY_PROVIDERS_CREATE',
      'CAP_IAM_IDENTITY_PROVIDERS_UPDATE',
      'CAP_IAM_IDENTITY_PROVIDERS_LIST',
      'CAP_IAM_ROLE_BINDINGS_CREATE',
      'CAP_REPO_LIST',
    ];
    await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'idp-admin', capabilities: caps } });
    const weak = (await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'repo-lister', capabilities: ['CAP_REPO_LIST'] } }))
      .json.uid as string;
    const admin = await identityWithRole(berth.url, token, berth.orgUid, 'idp-admin', berth.orgUid);
    const create = (defaultRole: string) =>
      rest(berth.url, 'POST', path(berth.orgUid), { token: admin.token, body: { name: 'admin-idp', defaultRole, oidc: oidc() } });
    assert.equal((await create(VIEWER_UID)).status, 403, 'viewer holds capabilities the caller lacks');
    const mine = await create(weak);
    assert.equal(mine.status, 200, mine.text);
    const toViewer = await rest(berth.url, 'PATCH', path(mine.json.uid), { token: admin.token, body: { defaultRole: VIEWER_UID } });
    assert.equal(toViewer.status, 403, toViewer.text);
    const described = await rest(berth.url, 'PATCH', path(mine.json.uid), { token: admin.token, body: { description: 'fine' } });
    assert.equal(described.status, 200, described.text);
    // Re-pointing the owner's provider (default role viewer) at another issuer would hand viewer to whoever it vouches for.
    const owners = await rest(berth.url, 'POST', path(berth.orgUid), { token, body: { name: 'owners-idp', defaultRole: VIEWER_UID, oidc: oidc() } });
    const repoint = await rest(berth.url, 'PATCH', `${path(owners.json.uid)}?updateMask=oidc.issuer`, {
      token: admin.token,
      body: { oidc: { issuer: 'https://attacker.example.com' } },
    });
    assert.equal(repoint.status, 403, repoint.text);
    assert.equal((await rest(berth.url, 'GET', path(owners.json.uid), { token })).json.oidc.issuer, 'https://idp.example.com');
  });

  it('lists in uid order by default, pages with tokens and sorts by name', async () => {
    const g = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'idp-paging' } })).json.uid as string;
    const made: string[] = [];
    for (const name of ['delta', 'alpha', 'echo', 'charlie', 'bravo']) {
      const r = await rest(berth.url, 'POST', path(g), { token, body: { name: `idp-${name}`, defaultRole: VIEWER_UID, oidc: oidc() } });
      assert.equal(r.status, 200, r.text);
      made.push(r.json.uid);
    }
    const seen: string[] = [];
    let pageToken = '';
    for (let i = 0; i < 5; i++) {
      const r = await rest(berth.url, 'GET', `/iam/v2/identityProviders?uidp.children_of=${g}&page_size=2&page_token=${pageToken}`, { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.totalCount, '5');
      seen.push(...r.json.identityProviders.map((p: { uid: string }) => p.uid));
      pageToken = r.json.nextPageToken;
      if (pageToken === '') break;
    }
    assert.deepEqual(seen, [...made].sort());
    const byName = await rest(berth.url, 'GET', `/iam/v2/identityProviders?uidp.descendants_of=${berth.orgUid}&uidp.children_of=${g}&order_by=name%20desc`, {
      token,
    });
    assert.deepEqual(
      byName.json.identityProviders.map((p: { name: string }) => p.name),
      ['idp-echo', 'idp-delta', 'idp-charlie', 'idp-bravo', 'idp-alpha'],
    );
    const badOrder = await rest(berth.url, 'GET', '/iam/v2/identityProviders?order_by=issuer', { token });
    assert.equal(badOrder.status, 400);
  });

  it('keeps a group holding a provider, and a role a provider uses, from being deleted', async () => {
    const g = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'idp-holder' } })).json.uid as string;
    const role = (await rest(berth.url, 'POST', `/iam/v2/roles/${g}`, { token, body: { name: 'idp-default', capabilities: ['CAP_REPO_LIST'] } })).json
      .uid as string;
    const p = await rest(berth.url, 'POST', path(g), { token, body: { name: 'held-idp', defaultRole: role, oidc: oidc() } });
    assert.equal(p.status, 200, p.text);
    const delRole = await rest(berth.url, 'DELETE', `/iam/v2/roles/${role}`, { token });
    assert.equal(delRole.status, 400, delRole.text);
    assert.match(delRole.json.message, /used by at least one identity provider/);
    const delGroup = await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token });
    assert.equal(delGroup.status, 400, delGroup.text);
    assert.equal(delGroup.json.message, 'Precondition failed: cannot delete group with child identity_providers');
    assert.equal((await rest(berth.url, 'DELETE', path(p.json.uid), { token })).status, 200);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roles/${role}`, { token })).status, 200);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token })).status, 200);
  });
});

describe('iam identity providers on a server without a secrets key, with --allow-insecure-issuers', () => {
  let berth: Berth;
  let token: string;
  before(async () => {
    berth = await startBerth({ extraArgs: ['--allow-insecure-issuers'] });
    token = ownerToken(berth.credentialsFile);
  });
  after(async () => {
    await berth.stop();
  });

  it('refuses to store a client secret, and accepts a plain-http loopback issuer', async () => {
    const body = { name: 'local-idp', defaultRole: VIEWER_UID, oidc: oidc({ issuer: 'http://127.0.0.1:5556/dex', clientSecret: SECRET }) };
    const refused = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, { token, body });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.code, 9);
    const pf = refused.json.details.find((d: { '@type': string }) => d['@type'].endsWith('PreconditionFailure'));
    assert.equal(pf.violations[0].type, 'SECRETS_KEY_REQUIRED');
    assert.ok(!refused.text.includes(SECRET));
    const publicClient = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
      token,
      body: { ...body, oidc: oidc({ issuer: 'http://127.0.0.1:5556/dex', pkceEnabled: true }) },
    });
    assert.equal(publicClient.status, 200, publicClient.text);
    const addSecret = await rest(berth.url, 'PATCH', `/iam/v2/identityProviders/${publicClient.json.uid}`, {
      token,
      body: { oidc: { issuer: 'http://127.0.0.1:5556/dex', clientId: 'berth', clientSecret: SECRET } },
    });
    assert.equal(addSecret.status, 400, addSecret.text);
    assert.equal(addSecret.json.code, 9);
    const remote = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
      token,
      body: { ...body, oidc: oidc({ issuer: 'http://idp.example.com' }) },
    });
    assert.equal(remote.status, 400, 'plain http only for loopback');
  });
});
