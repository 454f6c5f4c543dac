// Account associations: one per group, whose uid is the group's; the
// reference's validation; PATCH by mask; idempotent delete; the list's
// default order (group asc) and scoping; the check Berth can answer without
// cloud credentials; permission before existence; REST and gRPC.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, type ConnectError } from '@connectrpc/connect';
import { AccountAssociationsService, AccountProviderType, CheckStatus } from '../../src/gen/berth/iam/v2/account_associations_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const AMAZON = { account: '123456789012' };
const GOOGLE = { projectId: 'my-project-42', projectNumber: '123456789' };
const AZURE = { tenantId: '0f0e0d0c-0b0a-0908-0706-050403020100', clientIds: { registry: '11111111-2222-3333-4444-555555555555' } };
const GITHUB = { appInstallations: { '1234': { installations: [{ installationId: '98765', name: 'acme' }] } } };

// biome-ignore lint/suspicious/noExplicitAny: error bodies are asserted on as loose JSON
function fields(json: any): string[] {
  return (json.details?.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest'))?.fieldViolations ?? []).map((v: { field: string }) => v.field);
}

describe('iam account associations', () => {
  let berth: Berth;
  let token: string;
  const group = async (name: string, parent = berth.orgUid) =>
    (await rest(berth.url, 'POST', `/iam/v2/groups/${parent}`, { token, body: { name } })).json.uid as string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates one association per group, its uid the group uid, and reads it back', async () => {
    const g = await group('aa-crud');
    const body = { name: 'prod accounts', description: 'the production clouds', amazon: AMAZON, google: GOOGLE, azure: AZURE, github: GITHUB };
    const c = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body });
    assert.equal(c.status, 200, c.text);
    assert.equal(c.json.uid, g);
    assert.deepEqual({ ...c.json, createTime: undefined, updateTime: undefined }, { uid: g, ...body, createTime: undefined, updateTime: undefined });
    assert.match(c.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await rest(berth.url, 'GET', `/iam/v2/accountAssociations/${g}`, { token });
    assert.deepEqual(got.json, c.json);
    const twice = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'again', amazon: AMAZON } });
    assert.equal(twice.status, 409, twice.text);
    const noGroup = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}/0000000000000000`, { token, body: { name: 'x', amazon: AMAZON } });
    assert.equal(noGroup.status, 404, noGroup.text);
    const none = await rest(berth.url, 'GET', `/iam/v2/accountAssociations/${await group('aa-none')}`, { token });
    assert.equal(none.status, 404, none.text);
    assert.equal(none.json.details[1].resourceType, 'iam.berth.dev/AccountAssociation');
  });

  it("validates with the reference's rules and names the fields", async () => {
    const g = await group('aa-validation');
    const at = 'account_association.';
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ amazon: AMAZON }, [`${at}name`]],
      [{ name: 'Upper Case', amazon: AMAZON }, [`${at}name`]],
      [{ name: 'x'.repeat(64), amazon: AMAZON }, [`${at}name`]],
      [{ name: 'ok', description: 'two\nlines', amazon: AMAZON }, [`${at}description`]],
      [{ name: 'ok', description: 'd'.repeat(513), amazon: AMAZON }, [`${at}description`]],
      [{ name: 'no providers' }, ['account_association']],
      [{ name: 'ok', amazon: { account: '12345' } }, [`${at}amazon.account`]],
      [{ name: 'ok', amazon: {} }, [`${at}amazon.account`]],
      [{ name: 'ok', google: { projectId: 'my-project-42' } }, [`${at}google.project_number`]],
      [{ name: 'ok', google: { projectNumber: '1' } }, [`${at}google.project_id`]],
      [{ name: 'ok', google: { projectId: 'Bad_Project', projectNumber: 'x1' } }, [`${at}google.project_id`, `${at}google.project_number`]],
      [{ name: 'ok', azure: { clientIds: AZURE.clientIds } }, [`${at}azure.tenant_id`]],
      [{ name: 'ok', azure: { tenantId: AZURE.tenantId } }, [`${at}azure.client_ids`]],
      [{ name: 'ok', azure: { tenantId: AZURE.tenantId, clientIds: { registry: 'not-a-uuid' } } }, [`${at}azure.client_ids`]],
      [{ name: 'ok', github: { appInstallations: { '7': { installations: [] } } } }, [`${at}github.app_installations[7].installations`]],
      [{ name: 'ok', github: { appInstallations: { '7': { installations: [{ name: 'x' }] } } } }, [`${at}github.app_installations[7].installations`]],
      [{ name: 'ok', github: { appInstallations: { '-7': { installations: [{ installationId: '1' }] } } } }, [`${at}github.app_installations[-7]`]],
    ];
    for (const [body, expected] of cases) {
      const r = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(fields(r.json).sort(), expected.sort(), JSON.stringify(body));
    }
    assert.deepEqual(await sqlQuery(berth, 'select uid from account_associations where uid = $1', [g]), [], 'nothing was stored');
  });

  it('updates only what is sent or named in the mask, and validates the result', async () => {
    const g = await group('aa-update');
    const c = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'before', amazon: AMAZON } });
    assert.equal(c.status, 200, c.text);
    const sent = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${g}`, { token, body: { description: 'added', google: GOOGLE } });
    assert.equal(sent.status, 200, sent.text);
    assert.deepEqual([sent.json.name, sent.json.description, sent.json.amazon, sent.json.google], ['before', 'added', AMAZON, GOOGLE]);
    assert.equal(sent.json.createTime, c.json.createTime);
    // A provider named in the mask but absent from the body is removed.
    const masked = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${g}?updateMask=amazon,name`, {
      token,
      body: { name: 'after', description: 'ignored' },
    });
    assert.equal(masked.status, 200, masked.text);
    assert.deepEqual([masked.json.name, masked.json.description, masked.json.amazon, masked.json.google], ['after', 'added', undefined, GOOGLE]);
    const emptied = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${g}?updateMask=google`, { token, body: {} });
    assert.equal(emptied.status, 400, 'an association keeps at least one provider');
    const bad = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${g}`, { token, body: { amazon: { account: 'nope' } } });
    assert.deepEqual(fields(bad.json), ['account_association.amazon.account']);
    const unknown = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${g}?updateMask=chainguard`, { token, body: {} });
    assert.equal(unknown.status, 400, unknown.text);
    const missing = await rest(berth.url, 'PATCH', `/iam/v2/accountAssociations/${await group('aa-missing')}`, { token, body: { name: 'x' } });
    assert.equal(missing.status, 404, missing.text);
    assert.deepEqual((await rest(berth.url, 'GET', `/iam/v2/accountAssociations/${g}`, { token })).json, masked.json);
  });

  it('deletes (again: NOT_FOUND with ResourceInfo), and goes with its group', async () => {
    const g = await group('aa-delete');
    await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'gone soon', amazon: AMAZON } });
    const d = await rest(berth.url, 'DELETE', `/iam/v2/accountAssociations/${g}`, { token });
    assert.equal(d.status, 200, d.text);
    assert.equal(d.text, '{}');
    const again = await rest(berth.url, 'DELETE', `/iam/v2/accountAssociations/${g}`, { token });
    assert.equal(again.status, 404, again.text);
    const info = again.json.details.find((x: { '@type': string }) => x['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo');
    assert.deepEqual([info?.resourceType, info?.resourceName], ['iam.berth.dev/AccountAssociation', g]);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/accountAssociations/${g}`, { token })).status, 404);
    await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'again', amazon: AMAZON } });
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/groups/${g}`, { token })).status, 200, 'an association does not keep its group alive');
    assert.deepEqual(await sqlQuery(berth, 'select uid from account_associations where uid = $1', [g]), []);
  });

  it('lists in group order, scoped to what the caller may see', async () => {
    const parent = await group('aa-list');
    const kids = [await group('b', parent), await group('a', parent), await group('c', parent)];
    for (const [i, k] of kids.entries()) {
      const r = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${k}`, { token, body: { name: `assoc-${i}`, amazon: AMAZON } });
      assert.equal(r.status, 200, r.text);
    }
    const listed = await rest(berth.url, 'GET', `/iam/v2/accountAssociations?uidp.childrenOf=${parent}`, { token });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.json.accountAssociations.map((a: { uid: string }) => a.uid),
      [...kids].sort(),
    );
    assert.equal(listed.json.totalCount, '3');
    const byName = await rest(berth.url, 'GET', `/iam/v2/accountAssociations?uidp.descendantsOf=${parent}&orderBy=name desc&pageSize=2`, { token });
    assert.deepEqual(
      byName.json.accountAssociations.map((a: { name: string }) => a.name),
      ['assoc-2', 'assoc-1'],
    );
    const rest2 = await rest(
      berth.url,
      'GET',
      `/iam/v2/accountAssociations?uidp.descendantsOf=${parent}&orderBy=name desc&pageSize=2&pageToken=${encodeURIComponent(byName.json.nextPageToken)}`,
      { token },
    );
    assert.deepEqual(
      rest2.json.accountAssociations.map((a: { name: string }) => a.name),
      ['assoc-0'],
    );
    assert.equal(rest2.json.nextPageToken, '');
    const named = await rest(berth.url, 'GET', '/iam/v2/accountAssociations?name=assoc-1', { token });
    assert.deepEqual(
      named.json.accountAssociations.map((a: { uid: string }) => a.uid),
      [kids[1]],
    );
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', kids[2]);
    const theirs = await rest(berth.url, 'GET', '/iam/v2/accountAssociations', { token: viewer.token });
    assert.deepEqual(
      theirs.json.accountAssociations.map((a: { uid: string }) => a.uid),
      [kids[2]],
    );
  });

  it('answers a check with what Berth can know without cloud credentials', async () => {
    const g = await group('aa-check');
    await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${g}`, { token, body: { name: 'aws only', amazon: AMAZON } });
    const check = (providerType: string, uid = g) =>
      rest(berth.url, 'POST', `/iam/v2/accountAssociations/${uid}:checkAccountAssociation`, { token, body: { providerType } });
    const google = await check('ACCOUNT_PROVIDER_TYPE_GOOGLE');
    assert.equal(google.status, 200, google.text);
    assert.deepEqual(google.json, { status: 'CHECK_STATUS_NOT_READY', reason: 'not configured', message: 'the association has no Google Cloud settings' });
    const aws = await check('ACCOUNT_PROVIDER_TYPE_AMAZON');
    assert.equal(aws.status, 501, aws.text);
    assert.equal(aws.json.code, 12);
    assert.match(aws.json.message, /no live credential exchange/);
    const unspecified = await check('ACCOUNT_PROVIDER_TYPE_UNSPECIFIED');
    assert.equal(unspecified.status, 400, unspecified.text);
    assert.deepEqual(fields(unspecified.json), ['provider_type']);
    assert.equal((await check('ACCOUNT_PROVIDER_TYPE_AZURE', await group('aa-check-none'))).status, 404);
  });

  it('checks permission before existence', async () => {
    const mine = await group('aa-mine');
    const theirs = await group('aa-theirs');
    await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${theirs}`, { token, body: { name: 'x', amazon: AMAZON } });
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'owner', mine);
    for (const uid of [theirs, `${theirs}/0000000000000000`]) {
      for (const [method, path, body] of [
        ['GET', `/iam/v2/accountAssociations/${uid}`, undefined],
        ['PATCH', `/iam/v2/accountAssociations/${uid}`, { name: 'y' }],
        ['DELETE', `/iam/v2/accountAssociations/${uid}`, undefined],
        ['POST', `/iam/v2/accountAssociations/${uid}`, { name: 'y', amazon: AMAZON }],
        ['POST', `/iam/v2/accountAssociations/${uid}:checkAccountAssociation`, { providerType: 'ACCOUNT_PROVIDER_TYPE_AMAZON' }],
      ] as const) {
        const r = await rest(berth.url, method, path, { token: who.token, body });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      }
    }
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/accountAssociations/${theirs}`, { token })).status, 200, 'the owner still sees it');
  });

  it('serves gRPC with the same behaviour', async () => {
    const g = await group('aa-grpc');
    const client = grpcClient(AccountAssociationsService, berth.url, token);
    const created = await client.createAccountAssociation({
      parent: g,
      accountAssociation: { name: 'grpc', github: { appInstallations: { '5': { installations: [{ installationId: 6n, name: 'o' }] } } } },
    });
    assert.equal(created.uid, g);
    assert.equal(created.github?.appInstallations['5'].installations[0].installationId, 6n);
    const checked = await client.checkAccountAssociation({ uid: g, providerType: AccountProviderType.AZURE });
    assert.equal(checked.status, CheckStatus.NOT_READY);
    await client.deleteAccountAssociation({ uid: g });
    await assert.rejects(client.deleteAccountAssociation({ uid: g }), (e: ConnectError) => e.code === Code.NotFound);
    await assert.rejects(client.getAccountAssociation({ uid: g }), /not found/);
  });
});
