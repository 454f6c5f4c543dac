// docker-credential-berth (the package's bin, run by its shebang as docker
// runs it) speaks the credential-helper protocol: `get` answers `_token` and a
// fresh registry token the registry's /token accepts, another server is
// "credentials not found in native keychain"; nothing is stored. `berth auth
// configure-docker` adds the credHelpers entry, keeping the rest of the file;
// skopeo then pulls a private image through the helper with no login at all.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv, CREDENTIAL_HELPER_BIN, runProgram, type Run } from '../harness/cli-run.js';
import { writeImage } from '../harness/oci-layout.js';
import { basic, claimsOf, cliToken, registryHost, tokenGet } from '../harness/registry-client.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const NOT_FOUND = 'credentials not found in native keychain\n';
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

describe('docker-credential-berth and berth auth configure-docker', () => {
  let berth: Berth;
  let host: string;
  const configDir = tmp('helper-cli');

  useBerth((b) => {
    berth = b;
  });

  before(async () => {
    host = registryHost(berth);
    const login = await berthCli(['auth', 'login', '--credentials', berth.credentialsFile], { env: cliEnv(configDir) });
    assert.equal(login.code, 0, login.stderr);
  });

  const helper = (action: string, input = '', dir = configDir): Promise<Run> => runProgram(CREDENTIAL_HELPER_BIN, [action], { env: cliEnv(dir), input });

  it('get answers _token and a fresh registry token for this registry, however docker writes its name', async () => {
    for (const server of [host, `http://${host}`, `https://${host}/v2/`, `${host}\n`]) {
      const r = await helper('get', server);
      assert.equal(r.code, 0, `${server}: ${r.stdout}${r.stderr}`);
      const answer = JSON.parse(r.stdout) as { ServerURL: string; Username: string; Secret: string };
      assert.equal(answer.ServerURL, server.trim());
      assert.equal(answer.Username, '_token');
      assert.equal(claimsOf(answer.Secret).aud, host);
      assert.equal(claimsOf(answer.Secret).sub, berth.ownerIdentity);
      const t = await tokenGet(berth, [`repository:${berth.orgName}/app:pull,push`], basic(answer.Username, answer.Secret));
      assert.equal(t.status, 200, t.text);
      assert.deepEqual(claimsOf(t.json.token).access[0].actions, ['pull', 'push']);
    }
  });

  it('get answers "credentials not found" for another server, and the protocol’s message for none', async () => {
    for (const server of ['index.docker.io', 'https://registry.example.com', 'http://127.0.0.1:1', 'not a host']) {
      const r = await helper('get', server);
      assert.equal(r.code, 1, server);
      assert.equal(r.stdout, NOT_FOUND, server);
    }
    const none = await helper('get', '');
    assert.equal(none.code, 1);
    assert.equal(none.stdout, 'no credentials server URL\n');
  });

  it('get without saved credentials says how to log in', async () => {
    const r = await helper('get', host, tmp('no-login'));
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^not logged in: .*`berth auth login --credentials <file>`/);
  });

  it('stores nothing: store takes back its own _token answer and refuses other credentials; erase and list have nothing', async () => {
    const own = await helper('store', JSON.stringify({ ServerURL: host, Username: '_token', Secret: 'x' }));
    assert.equal(own.code, 0, own.stdout);
    assert.equal(own.stdout, '');
    const other = await helper('store', JSON.stringify({ ServerURL: host, Username: `${berth.orgUid}/0123456789abcdef`, Secret: 'x' }));
    assert.equal(other.code, 1);
    assert.match(other.stdout, /stores no credentials/);
    assert.equal((await helper('store', 'not json')).code, 1);
    const erase = await helper('erase', host);
    assert.deepEqual([erase.code, erase.stdout], [0, '']);
    const list = await helper('list');
    assert.deepEqual([list.code, JSON.parse(list.stdout)], [0, {}]);
    const unknown = await helper('frobnicate');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /^usage: docker-credential-berth/);
  });

  it('configure-docker adds credHelpers for the registry the API announces and keeps everything else, in a 0600 file', async () => {
    const dir = tmp('docker-config');
    const file = join(dir, 'config.json');
    const existing = {
      auths: { 'other.example': { auth: 'dTpw' } },
      credsStore: 'desktop',
      credHelpers: { 'gcr.io': 'gcloud' },
      experimental: 'enabled',
    };
    writeFileSync(file, JSON.stringify(existing), { mode: 0o644 });
    const r = await berthCli(['auth', 'configure-docker', '--config', file], { env: cliEnv(configDir) });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { ...existing, credHelpers: { 'gcr.io': 'gcloud', [host]: 'berth' } });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['config.json'], 'no temporary file is left behind');
    assert.ok(r.stderr.includes(`credHelpers["${host}"] = "berth"`), r.stderr);
  });

  it('configure-docker creates a missing file and directory (DOCKER_CONFIG), and takes --registry as docker names hosts', async () => {
    const dockerConfig = join(tmp('docker-home'), 'nested', '.docker');
    const r = await berthCli(['auth', 'configure-docker', '--registry', 'https://Registry.Example.com/'], {
      env: cliEnv(configDir, { DOCKER_CONFIG: dockerConfig }),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(dockerConfig, 'config.json'), 'utf8')), { credHelpers: { 'registry.example.com': 'berth' } });
    assert.equal(statSync(dockerConfig).mode & 0o777, 0o700);
  });

  it('configure-docker leaves a file it cannot read as JSON untouched', async () => {
    const dir = tmp('docker-bad');
    const file = join(dir, 'config.json');
    for (const text of ['{"auths": {', '[1, 2]', '{"credHelpers": "berth"}']) {
      writeFileSync(file, text);
      const r = await berthCli(['auth', 'configure-docker', '--config', file, '--registry', host], { env: cliEnv(configDir) });
      assert.equal(r.code, 1, text);
      assert.match(r.stderr, /was not changed/);
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  });

  it('lets skopeo pull a private image through the helper that configure-docker set up, with no login', { skip: skopeoMissing }, async () => {
    const layout = tmp('helper-img');
    const image = await writeImage(layout, 'v1', {});
    const ref = `docker://${host}/${berth.orgName}/helped/app:v1`;
    const pushed = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', cliToken(berth, host).token), `oci:${layout}:v1`, ref]);
    assert.equal(pushed.code, 0, pushed.stderr);

    // skopeo reads credHelpers from its auth file as docker does from config.json.
    const authFile = join(tmp('helper-auth'), 'config.json');
    const configured = await berthCli(['auth', 'configure-docker', '--config', authFile], { env: cliEnv(configDir) });
    assert.equal(configured.code, 0, configured.stderr);
    const binDir = join(tmp('helper-path'), 'bin');
    mkdirSync(binDir);
    symlinkSync(CREDENTIAL_HELPER_BIN, join(binDir, 'docker-credential-berth'));
    const env = { ...cliEnv(configDir), PATH: `${binDir}:${process.env.PATH}` };

    const inspect = await skopeo(['inspect', '--tls-verify=false', '--format', '{{.Digest}}', ref], 120_000, { authFile, env });
    assert.equal(inspect.code, 0, inspect.stderr);
    assert.equal(inspect.stdout.trim(), image.manifest.digest);
    const anonymous = await skopeo(['inspect', '--tls-verify=false', '--format', '{{.Digest}}', ref], 120_000, { env });
    assert.notEqual(anonymous.code, 0, 'without the helper entry the image is private');
  });
});
