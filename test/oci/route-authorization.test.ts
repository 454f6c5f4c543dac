// Every registry route is authorized for the action it declares before any
// of it runs: without a token each method of each path is challenged with the
// scope it needs; with a pull-only token the pull routes pass and the push and
// delete routes are refused with insufficient_scope — the same answer for a
// repository that does not exist, and before a malformed digest or upload id
// is looked at (permission before input and existence).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';
import { identityWithKeys, registryGet, registryHost } from '../harness/registry-client.js';

// A digest the path grammar takes and digestParam refuses (DIGEST_INVALID once authorized).
const BAD_DIGEST = 'sha256:zz';
/** Each method of each repository path, with the action it needs (`<name>` stands for the repository). */
const ROUTES: Array<[method: string, path: string, action: 'pull' | 'push' | 'delete']> = [
  ['GET', '/v2/<name>/manifests/latest', 'pull'],
  ['HEAD', '/v2/<name>/manifests/latest', 'pull'],
  ['PUT', '/v2/<name>/manifests/latest', 'push'],
  ['DELETE', `/v2/<name>/manifests/${BAD_DIGEST}`, 'delete'],
  ['GET', `/v2/<name>/blobs/${BAD_DIGEST}`, 'pull'],
  ['HEAD', `/v2/<name>/blobs/${BAD_DIGEST}`, 'pull'],
  ['DELETE', `/v2/<name>/blobs/${BAD_DIGEST}`, 'delete'],
  ['POST', `/v2/<name>/blobs/uploads/?digest=${BAD_DIGEST}`, 'push'],
  ['GET', '/v2/<name>/blobs/uploads/no-such-upload', 'push'],
  ['PATCH', '/v2/<name>/blobs/uploads/no-such-upload', 'push'],
  ['PUT', `/v2/<name>/blobs/uploads/no-such-upload?digest=${BAD_DIGEST}`, 'push'],
  ['DELETE', '/v2/<name>/blobs/uploads/no-such-upload', 'push'],
  ['GET', '/v2/<name>/tags/list', 'pull'],
  ['GET', `/v2/<name>/referrers/${BAD_DIGEST}`, 'pull'],
  ['GET', '/v2/<name>/_berth/history/latest', 'pull'],
];

describe('registry routes are authorized for their declared action first', () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let puller: string;
  let existing: string;
  let missing: string;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    host = registryHost(berth);
    const r = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: 'tools/app' } });
    assert.equal(r.status, 200, r.text);
    existing = `${berth.orgName}/tools/app`;
    missing = `${berth.orgName}/tools/no-such-app`;
    puller = await (await identityWithKeys(berth, owner, berth.orgUid, 'registry.pull')).tokenFor(host);
  });

  const call = (method: string, path: string, name: string, token?: string) =>
    registryGet(berth, path.replace('<name>', name), token ? `Bearer ${token}` : undefined, method);

  it('challenges every route without a token with the scope of its action', async () => {
    const wrong: string[] = [];
    for (const [method, path, action] of ROUTES) {
      for (const name of [existing, missing]) {
        const r = await call(method, path, name);
        const challenge = r.headers.get('www-authenticate') ?? '';
        const want = `Bearer realm="${berth.registryPublicUrl}/token",service="${host}",scope="repository:${name}:${action}"`;
        if (r.status !== 401 || challenge !== want) wrong.push(`${method} ${path} on ${name}: ${r.status} ${challenge}`);
        // HEAD answers carry no body.
        else if (method !== 'HEAD' && r.json.errors[0].code !== 'UNAUTHORIZED') wrong.push(`${method} ${path}: ${r.text}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lets a pull-only token through the pull routes and refuses it the push and delete routes, whether or not the repo exists', async () => {
    const wrong: string[] = [];
    for (const [method, path, action] of ROUTES) {
      const answers = [];
      for (const name of [existing, missing]) {
        const r = await call(method, path, name, puller);
        answers.push(`${r.status} ${method === 'HEAD' ? '' : r.json?.errors?.[0]?.code}`);
        const challenge = r.headers.get('www-authenticate') ?? '';
        if (action === 'pull') {
          if (r.status === 401 || r.status === 403) wrong.push(`${method} ${path} on ${name}: ${r.status} ${r.text}`);
        } else if (r.status !== 401 || !challenge.endsWith(`scope="repository:${name}:${action}",error="insufficient_scope"`)) {
          wrong.push(`${method} ${path} on ${name}: ${r.status} ${challenge}`);
        }
      }
      if (action !== 'pull' && answers[0] !== answers[1]) wrong.push(`${method} ${path}: ${answers.join(' vs ')} (existence shows)`);
    }
    assert.deepEqual(wrong, []);
  });

  it('checks input only once authorized: the owner gets DIGEST_INVALID where the others got 401', async () => {
    const ownerReg = await (await identityWithKeys(berth, owner, berth.orgUid, 'owner')).tokenFor(host);
    const r = await call('DELETE', `/v2/<name>/blobs/${BAD_DIGEST}`, existing, ownerReg);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errors[0].code, 'DIGEST_INVALID');
  });
});
