// The registry listener itself: its flags (off, public URL, history segment,
// public org), unknown paths and methods, and requests Node's parser refuses,
// all answered with the OCI error body.
import assert from 'node:assert/strict';
import { seedImage } from '../harness/registry-content.js';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';
import { cliToken, registryGet, registryHost, tokenGet } from '../harness/registry-client.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('registry listener', () => {
  describe('with --registry-public-url, --history-segment and --public-org', () => {
    let berth: Berth;
    before(async () => {
      berth = await startBerth({
        extraArgs: ['--registry-public-url', 'http://registry.example:5999', '--history-segment', '_vendor', '--public-org', 'free.images'],
      });
    });
    after(async () => {
      await berth.stop();
    });

    it('names the public URL in the challenge and takes its host as the token audience', async () => {
      assert.equal(berth.registryPublicUrl, 'http://registry.example:5999');
      assert.equal(registryHost(berth), 'registry.example:5999');
      const r = await registryGet(berth, '/v2/');
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="http://registry.example:5999/token",service="registry.example:5999"');
      const minted = cliToken(berth, 'registry.example:5999');
      assert.equal(minted.status, 0, minted.stderr);
      assert.equal((await registryGet(berth, '/v2/', `Bearer ${minted.token}`)).status, 200);
      // The listen address is not the audience.
      const other = cliToken(berth, new URL(berth.registryUrl as string).host);
      assert.notEqual(other.status, 0);
    });

    it('serves the history under the configured segment only', async () => {
      const owner = ownerToken(berth.credentialsFile);
      const repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: 'app' } })).json.uid;
      const digest = await seedImage(berth, repo);
      const tag = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token: owner, body: { name: 'latest', digest } });
      assert.equal(tag.status, 200, tag.text);
      const reg = cliToken(berth, 'registry.example:5999').token;
      assert.equal((await registryGet(berth, `/v2/${berth.orgName}/app/_vendor/history/latest`, `Bearer ${reg}`)).status, 200);
      const old = await registryGet(berth, `/v2/${berth.orgName}/app/_berth/history/latest`, `Bearer ${reg}`);
      assert.equal(old.status, 404);
      assert.equal(old.json.errors[0].code, 'NAME_UNKNOWN');
    });

    it('treats the configured public organization as public', async () => {
      const anon = await tokenGet(berth, ['repository:free.images/x:pull', 'repository:public/x:pull']);
      const access = JSON.parse(Buffer.from(anon.json.token.split('.')[1], 'base64url').toString()).access;
      assert.deepEqual(
        access.map((a: { actions: string[] }) => a.actions),
        [['pull'], []],
      );
    });
  });

  describe('paths and requests it does not serve', () => {
    let berth: Berth;
    before(async () => {
      berth = await startBerth();
    });
    after(async () => {
      await berth.stop();
    });

    it('answers unknown paths 404 and a wrong method 405, in the OCI shape', async () => {
      for (const p of ['/nope', '/v2/Upper/x/_berth/history/latest', '/v2/a/b/_berth/nothing', `/v2/${'a/'.repeat(600)}x/_berth/history/latest`]) {
        const r = await registryGet(berth, p);
        assert.equal(r.status, 404, p.slice(0, 40));
        assert.equal(r.json.errors[0].code, 'NAME_UNKNOWN');
      }
      const post = await rest(berth.registryUrl as string, 'POST', `/v2/${berth.orgName}/app/_berth/history/latest`);
      assert.equal(post.status, 405);
      assert.equal(post.json.errors[0].code, 'UNSUPPORTED');
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      // The API's own paths are not on the registry.
      assert.equal((await registryGet(berth, '/registry/v2/repos')).status, 404);
    });

    it('answers a request that is not HTTP/1.1 with 400 and the OCI body', async () => {
      const { port, hostname } = new URL(berth.registryUrl as string);
      const answer = await new Promise<string>((resolve, reject) => {
        const s = net.connect(Number(port), hostname, () => s.write('NOT HTTP AT ALL\r\n\r\n'));
        let out = '';
        s.on('data', (c) => {
          out += c.toString();
        });
        s.on('end', () => resolve(out));
        s.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.match(answer, /"errors":\[\{"code":"REQUEST_INVALID"/);
    });

    it('bounds the /token form and refuses other bodies there', async () => {
      const big = await rest(berth.registryUrl as string, 'POST', '/token', {
        rawBody: `grant_type=password&username=_token&password=${'x'.repeat(70_000)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(big.status, 413);
      assert.equal(big.json.errors[0].code, 'SIZE_INVALID');
      const json = await rest(berth.registryUrl as string, 'POST', '/token', { body: { grant_type: 'password' } });
      assert.equal(json.status, 400);
      assert.equal(json.json.error, 'invalid_request');
    });
  });

  describe('--registry-listen off', () => {
    let berth: Berth;
    before(async () => {
      berth = await startBerth({ extraArgs: ['--registry-listen', 'off'] });
    });
    after(async () => {
      await berth.stop();
    });

    it('runs no registry, announces none and mints no registry tokens', async () => {
      assert.equal(berth.registryUrl, undefined);
      const discovery = await rest(berth.url, 'GET', '/.well-known/openid-configuration');
      assert.equal(discovery.json.berth_registry_url, undefined);
      assert.equal(discovery.json.berth_registry_audience, undefined);
      const api = cliToken(berth, 'x');
      assert.notEqual(api.status, 0);
      const minted = cliToken(berth, '127.0.0.1:5000');
      assert.notEqual(minted.status, 0);
      assert.match(minted.stderr, /audience must be one of/);
      assert.equal((await rest(berth.url, 'GET', '/ping/v2/ping')).status, 200);
    });

    it('makes no pull token without a registry, and says so', async () => {
      const env = cliEnv(mkdtempSync(join(tmpdir(), 'berth-noreg-')));
      const r = await berthCli(['auth', 'pull-token', 'create', '--credentials', berth.credentialsFile, '--api', berth.url], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /announces no registry/);
      const owner = ownerToken(berth.credentialsFile);
      const identities = await rest(berth.url, 'GET', `/iam/v2/identities?uidp.children_of=${berth.orgUid}`, { token: owner });
      assert.equal(identities.json.identities.length, 0, identities.text);
    });
  });

  it('refuses bad registry flags at start', async () => {
    for (const args of [
      ['--history-segment', 'history'],
      ['--public-org', 'Not Valid'],
      ['--registry-public-url', 'ftp://x'],
      ['--registry-public-url', 'http://x/path'],
      ['--registry-listen', 'nowhere'],
    ]) {
      await assert.rejects(startBerth({ extraArgs: args }), /exited/, args.join(' '));
    }
  });
});
