// The container image (`npm run image`, scripts/image.js) built with buildah
// from this build's dist/, then run with podman: it serves the API and the
// registry as uid 65532, its own HEALTHCHECK passes, and it stops cleanly on
// SIGTERM. buildah and podman are Debian packages; without them the test
// skips saying so, and in CI (where .ci/run installs them) it fails instead.
// The image is tagged by a hash of what goes into it, so the PostgreSQL run
// of the suite reuses the image the SQLite run built.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TOOLS = ['buildah', 'podman'];
const missing = TOOLS.filter((t) => spawnSync(t, ['--version']).status !== 0);
const SKIP = missing.length > 0 ? `${missing.join(' and ')} not installed (apt-get install ${TOOLS.join(' ')} runc): the image test needs them` : false;
if (SKIP && process.env.CI) throw new Error(`${SKIP}; in CI they must be installed`);

function run(cmd: string, args: string[], timeout = 180_000): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout, maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`.slice(0, 4000));
  return r.stdout.trim();
}

/** What the image is made of: the build (tsc's and the console's), the lock file and the image scripts. */
function imageTag(): string {
  const h = createHash('sha256');
  for (const f of [
    'dist/.tsbuildinfo',
    'dist/console/index.html',
    'package-lock.json',
    'scripts/image.js',
    'scripts/image-rootfs.js',
    'scripts/image-healthcheck.js',
    'docs/openapi.json',
  ]) {
    h.update(readFileSync(join(ROOT, f)));
  }
  return `localhost/berth-test:${h.digest('hex').slice(0, 16)}`;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * podman's options for this kind of machine: a VM whose cgroups are in hybrid
 * mode (crun refuses them; runc accepts) and whose root lacks CAP_SYS_RESOURCE
 * (so no raising of rlimits: the container gets lower ones). Host networking,
 * so the container reaches PostgreSQL on loopback and the test reaches it.
 */
function runtimeOptions(): string[] {
  const runc = spawnSync('runc', ['--version']).status === 0 ? ['--runtime', 'runc'] : [];
  return [...runc, '--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096', '--network', 'host'];
}

async function waitForHealth(url: string, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    if (Date.now() > deadline)
      throw new Error(`the container did not answer /healthz in 60 s:\n${spawnSync('podman', ['logs', name], { encoding: 'utf8' }).stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the container image', { skip: SKIP }, () => {
  const tag = SKIP ? '' : imageTag();
  const name = `berth-test-${randomBytes(4).toString('hex')}`;
  let api = '';
  let registry = '';
  let databaseUrl: string | undefined;

  before(async () => {
    if (spawnSync('podman', ['image', 'exists', tag]).status !== 0) {
      // Earlier test images (other builds) go first; then this build's.
      const old = run('podman', ['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', 'reference=localhost/berth-test']);
      for (const t of old.split('\n').filter(Boolean)) spawnSync('podman', ['rmi', '--force', t]);
      run(process.execPath, [join(ROOT, 'scripts', 'image.js'), '--tag', tag], 300_000);
    }
    const [apiPort, registryPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${apiPort}`;
    registry = `http://127.0.0.1:${registryPort}`;
    databaseUrl = await freshDatabase();
    // Flags after the image name follow the entrypoint's (the last of a flag wins).
    const flags = ['--listen', `127.0.0.1:${apiPort}`, '--registry-listen', `127.0.0.1:${registryPort}`, '--public-url', api];
    if (databaseUrl) flags.push('--database', databaseUrl);
    run('podman', ['run', '--detach', '--name', name, '--health-interval', 'disable', ...runtimeOptions(), tag, ...flags]);
    await waitForHealth(api, name);
  });

  after(async () => {
    spawnSync('podman', ['rm', '--force', '--volumes', name]);
    await dropDatabase(databaseUrl);
  });

  it('is made from scratch: Node.js and Berth, no shell, run by a non-root user', () => {
    const config = JSON.parse(run('podman', ['image', 'inspect', tag]))[0].Config as { User: string; Entrypoint: string[]; ExposedPorts: object };
    assert.equal(config.User, '65532:65532');
    assert.deepEqual(Object.keys(config.ExposedPorts).sort(), ['5000/tcp', '8080/tcp']);
    assert.deepEqual(config.Entrypoint.slice(0, 3), ['/usr/local/bin/node', '/app/dist/src/cli/main.js', 'serve']);
    assert.equal(run('podman', ['exec', name, '/usr/local/bin/node', '-e', 'process.stdout.write(String(process.getuid()))']), '65532');
    assert.notEqual(spawnSync('podman', ['exec', name, '/bin/sh', '-c', 'true']).status, 0, 'the image holds no shell');
  });

  it('answers the API ping and both listeners health checks', async () => {
    const ping = await fetch(`${api}/ping/v2/ping`);
    assert.equal(ping.status, 200);
    assert.deepEqual(await ping.json(), { response: 'pong' });
    for (const base of [api, registry]) {
      const h = await fetch(`${base}/healthz`);
      assert.equal(h.status, 200, base);
      assert.deepEqual(await h.json(), { status: 'ok' });
    }
    const v2 = await fetch(`${registry}/v2/`);
    assert.equal(v2.status, 401, 'the registry asks for a token');
  });

  it('passes its own HEALTHCHECK (node asking /healthz inside the container)', () => {
    const r = spawnSync('podman', ['healthcheck', 'run', name], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr + r.stdout);
  });

  it('stops on SIGTERM, finishing its requests, with exit code 0', () => {
    run('podman', ['stop', '--time', '20', name]);
    assert.equal(run('podman', ['inspect', '--format', '{{.State.ExitCode}}', name]), '0');
    assert.match(spawnSync('podman', ['logs', name], { encoding: 'utf8' }).stdout, /"msg":"stopped"/);
  });
});
