// Terms: the documents the operator configures (--terms-file), accepted per
// group (who, when, which documents; idempotent), listed with the
// acceptances of the group's ancestors; bad files stop the server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TermsService } from '../../src/gen/berth/iam/v2/terms_pb.js';
import { grpcClient, identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { dropDatabase, freshDatabase, startBerth, useBerth, type Berth } from '../harness/berth-process.js';

const DOCS = {
  documents: [
    { id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/terms/v1' },
    { id: 'dpa.v2', label: 'Data Processing Addendum', url: 'https://example.com/dpa/v2' },
  ],
};

function termsFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'berth-terms-')), 'terms.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('iam terms', () => {
  let berth: Berth;
  let token: string;
  let team: string;
  let squad: string;
  useBerth(
    async (b, t) => {
      berth = b;
      token = t;
      team = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token: t, body: { name: 'terms-team' } })).json.uid;
      squad = (await rest(b.url, 'POST', `/iam/v2/groups/${team}`, { token: t, body: { name: 'terms-squad' } })).json.uid;
    },
    { extraArgs: ['--terms-file', termsFile(DOCS)] },
  );
  const accept = (group: string, documentIds: unknown, tok = token) => rest(berth.url, 'POST', `/iam/v2/terms/${group}`, { token: tok, body: { documentIds } });
  const list = (group: string, query = '', tok = token) => rest(berth.url, 'GET', `/iam/v2/terms/${group}${query}`, { token: tok });

  it('records who accepted which documents for a group, once per document', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'owner', team);
    const r = await accept(team, ['tos.v1', 'tos.v1'], who.token);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { group: team, documentIds: ['tos.v1'] });
    const first = await list(team);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.totalCount, '1');
    const [acc] = first.json.termsAcceptances;
    assert.deepEqual({ ...acc, createTime: undefined }, { docId: 'tos.v1', acceptedBy: who.uid, orgUid: team, createTime: undefined });
    assert.match(acc.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Accepting again keeps the first record: who and when.
    const again = await accept(team, ['tos.v1', 'dpa.v2']);
    assert.equal(again.status, 200, again.text);
    const second = await list(team, '?orderBy=doc_id');
    assert.deepEqual(
      second.json.termsAcceptances.map((a: { docId: string; acceptedBy: string }) => [a.docId, a.acceptedBy]),
      [
        ['dpa.v2', berth.ownerIdentity],
        ['tos.v1', who.uid],
      ],
    );
    assert.equal(second.json.termsAcceptances[1].createTime, acc.createTime);
  });

  it("lists a group's acceptances with its ancestors', not its descendants'", async () => {
    assert.equal((await accept(berth.orgUid, ['dpa.v2'])).status, 200);
    assert.equal((await accept(squad, ['tos.v1'])).status, 200);
    const of = async (g: string) =>
      (await list(g, '?orderBy=doc_id')).json.termsAcceptances.map(
        (a: { docId: string; orgUid: string }) => `${a.orgUid === g ? 'self' : a.orgUid}:${a.docId}`,
      );
    assert.deepEqual(await of(berth.orgUid), ['self:dpa.v2']);
    assert.deepEqual((await of(squad)).sort(), [`${berth.orgUid}:dpa.v2`, `${team}:dpa.v2`, `${team}:tos.v1`, 'self:tos.v1'].sort());
    // Pages follow the order and cover everything.
    const page1 = await list(squad, '?pageSize=3&orderBy=created_at desc');
    assert.equal(page1.json.totalCount, '4');
    assert.equal(page1.json.termsAcceptances.length, 3);
    const page2 = await list(squad, `?pageSize=3&orderBy=created_at desc&pageToken=${encodeURIComponent(page1.json.nextPageToken)}`);
    assert.equal(page2.json.termsAcceptances.length, 1);
    assert.equal(page2.json.nextPageToken, '');
    const bad = await list(squad, '?orderBy=uid');
    assert.equal(bad.status, 400);
    assert.match(bad.json.message, /sortable fields: created_at, doc_id/);
  });

  it('refuses documents the server does not offer, and bad requests', async () => {
    const unknown = await accept(team, ['tos.v1', 'tos.v9']);
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json.details[1].fieldViolations[0].field, 'document_ids[1]');
    assert.match(unknown.json.message, /offered: tos\.v1, dpa\.v2/);
    const none = await accept(team, []);
    assert.equal(none.status, 400, none.text);
    const tooMany = await accept(
      team,
      Array.from({ length: 101 }, () => 'tos.v1'),
    );
    assert.equal(tooMany.status, 400, tooMany.text);
    const noGroup = await accept(`${team}/0000000000000000`, ['tos.v1']);
    assert.equal(noGroup.status, 404, noGroup.text);
    assert.equal((await list(`${team}/0000000000000000`)).status, 404);
  });

  it('checks permission before existence', async () => {
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', squad);
    const listed = await list(squad, '', viewer.token);
    assert.equal(listed.status, 200, 'viewer holds terms.list');
    assert.equal((await accept(squad, ['tos.v1'], viewer.token)).status, 403, 'but not terms.accept');
    for (const g of [berth.orgUid, `${berth.orgUid}/0000000000000000`]) {
      assert.equal((await list(g, '', viewer.token)).status, 403);
      assert.equal((await accept(g, ['tos.v1'], viewer.token)).status, 403);
    }
  });

  it('serves gRPC with the same behaviour', async () => {
    const client = grpcClient(TermsService, berth.url, token);
    const r = await client.acceptTerms({ group: squad, documentIds: ['dpa.v2'] });
    assert.deepEqual(r.documentIds, ['dpa.v2']);
    const l = await client.listTermsAcceptances({ group: squad, orderBy: 'doc_id' });
    assert.ok(l.termsAcceptances.some((a) => a.docId === 'dpa.v2' && a.orgUid === squad));
    await assert.rejects(client.acceptTerms({ group: squad, documentIds: ['nope'] }), /unknown document/);
  });
});

describe('berth serve --terms-file', () => {
  // The file's rules are tested on parseTermsFile (test/unit/terms-file.test.ts); here, that the server applies them.
  it('refuses to start on a file that is not a valid list of documents, saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-terms-data-'));
    const databaseUrl = await freshDatabase();
    try {
      const file = termsFile({ documents: [{ id: 'Bad Id', label: 'x', url: 'https://e.x' }] });
      await assert.rejects(startBerth({ dataDir, databaseUrl, extraArgs: ['--registry-listen', 'off', '--terms-file', file] }), (err: Error) => {
        assert.ok(err.message.includes(`berth: --terms-file ${file}: documents[0].id must match`), err.message);
        return true;
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });

  it('offers no documents without a file', async () => {
    const b = await startBerth({ extraArgs: ['--registry-listen', 'off'] });
    try {
      const r = await rest(b.url, 'POST', `/iam/v2/terms/${b.orgUid}`, { token: ownerToken(b.credentialsFile), body: { documentIds: ['tos.v1'] } });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.message, /offers no terms documents/);
    } finally {
      await b.stop();
    }
  });
});
