// Repos over REST and gRPC: the contract's examples, list semantics and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { ConnectError, Code } from '@connectrpc/connect';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, rest } from '../harness/api-client.js';

describe('registry repos', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates, gets, lists, patches and deletes a repo over REST', async () => {
    const created = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'nginx', description: 'web server' } });
    assert.equal(created.status, 200, created.text);
    assert.match(created.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    assert.match(created.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const uid = created.json.uid as string;

    const got = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}`, { token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, created.json);

    const patched = await rest(berth.url, 'PATCH', `/registry/v2/repos/${uid}`, { token, body: { description: 'changed' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.description, 'changed');
    assert.equal(patched.json.name, 'nginx');

    // With a mask, other body fields are ignored.
    const masked = await rest(berth.url, 'PATCH', `/registry/v2/repos/${uid}?updateMask=description`, {
      token,
      body: { name: 'ignored', description: 'masked' },
    });
    assert.equal(masked.json.name, 'nginx');
    assert.equal(masked.json.description, 'masked');

    const listed = await rest(berth.url, 'GET', `/registry/v2/repos?name=nginx`, { token });
    assert.equal(listed.status, 200);
    assert.equal(listed.json.totalCount, '1');
    assert.equal(listed.json.skipped, 0);
    assert.equal(listed.json.nextPageToken, '');

    const del = await rest(berth.url, 'DELETE', `/registry/v2/repos/${uid}`, { token });
    assert.equal(del.status, 200);
    assert.equal(del.text, '{}');
    const gone = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}`, { token });
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 5);
    assert.ok(gone.json.details.some((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo'));
  });

  it('serves the same repo over gRPC', async () => {
    const client = grpcClient(ReposService, berth.url, token);
    const repo = await client.createRepo({ parent: berth.orgUid, repo: { name: 'grpc-repo' } });
    const got = await client.getRepo({ uid: repo.uid });
    assert.equal(got.name, 'grpc-repo');
    const viaRest = await rest(berth.url, 'GET', `/registry/v2/repos/${repo.uid}`, { token });
    assert.equal(viaRest.json.name, 'grpc-repo');
    await assert.rejects(client.getRepo({ uid: `${berth.orgUid}/0000000000000000` }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.NotFound);
      return true;
    });
  });

  it('rejects a bad repo name with a field violation and creates nothing', async () => {
    const r = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'Bad Name' } });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 3);
    assert.match(r.json.message, /^Invalid argument: /);
    const bad = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    assert.equal(bad.fieldViolations[0].field, 'repo.name');
    const list = await rest(berth.url, 'GET', `/registry/v2/repos?name=${encodeURIComponent('Bad Name')}`, { token });
    assert.equal(list.json.totalCount, '0');
  });

  it('refuses a create in a group that does not exist, and a taken name, naming what it refers to and writing nothing', async () => {
    const info = (json: { details: Array<Record<string, string>> }) => json.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo');
    const nowhere = `${berth.orgUid}/00000000000000ee`;
    const missing = await rest(berth.url, 'POST', `/registry/v2/repos/${nowhere}`, { token, body: { name: 'orphan' } });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(info(missing.json)?.resourceType, 'iam.berth.dev/Group');
    assert.equal(info(missing.json)?.resourceName, nowhere);
    const first = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'taken-once', description: 'first' } });
    assert.equal(first.status, 200, first.text);
    const again = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'taken-once', description: 'second' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json.message, 'Already exists: a repo named "taken-once" already exists in this group');
    assert.equal(info(again.json)?.resourceName, `${berth.orgUid}:taken-once`);
    const listed = await rest(berth.url, 'GET', '/registry/v2/repos?name=taken-once', { token });
    assert.deepEqual(
      listed.json.repos.map((r: { uid: string; description: string }) => [r.uid, r.description]),
      [[first.json.uid, 'first']],
    );
    assert.equal((await rest(berth.url, 'GET', '/registry/v2/repos?name=orphan', { token })).json.totalCount, '0');
  });

  it('lets exactly one of many simultaneous creates of a name win; the rest get 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'contested' } })),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.ok(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(','),
    );
    for (const r of results.filter((x) => x.status === 409)) assert.equal(r.json.code, 6);
  });

  it('reads and writes a repo readme', async () => {
    const repo = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'with-readme' } });
    const path = `/registry/v2/repos/${repo.json.uid}/readme`;
    const empty = await rest(berth.url, 'GET', path, { token });
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.json, { uid: repo.json.uid, content: '' });
    const written = await rest(berth.url, 'PATCH', path, { token, body: { content: '# Hello' } });
    assert.deepEqual(written.json, { uid: repo.json.uid, content: '# Hello' });
    assert.equal((await rest(berth.url, 'GET', path, { token })).json.content, '# Hello');
    const masked = await rest(berth.url, 'PATCH', `${path}?updateMask=uid`, { token, body: { content: 'ignored' } });
    assert.equal(masked.json.content, '# Hello');
    const unknown = await rest(berth.url, 'PATCH', `${path}?updateMask=colour`, { token, body: { content: 'nope' } });
    assert.equal(unknown.status, 400);
    const big = await rest(berth.url, 'PATCH', path, { token, body: { content: 'x'.repeat(1024 * 1024 + 1) } });
    assert.equal(big.status, 400);
    assert.equal((await rest(berth.url, 'GET', path, { token })).json.content, '# Hello');
    const missing = await rest(berth.url, 'PATCH', `/registry/v2/repos/${berth.orgUid}/00000000000000ff/readme`, { token, body: { content: 'x' } });
    assert.equal(missing.status, 404);
    // A listed repo does not carry its readme.
    const listed = await rest(berth.url, 'GET', '/registry/v2/repos?name=with-readme', { token });
    assert.equal(listed.json.repos[0].readme, undefined);
  });

  it('requires a token', async () => {
    const r = await rest(berth.url, 'GET', '/registry/v2/repos');
    assert.equal(r.status, 401);
    assert.equal(r.json.code, 16);
  });
});
