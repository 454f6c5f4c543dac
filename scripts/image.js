// npm run image: Berth's container image, built with buildah from scratch (no
// base image, no daemon; buildah copy and config only, so it also builds as a
// non-root user with subordinate ids). The rootfs is staged by image-rootfs.js
// from the build in dist/ (npm run image builds first). Docker format: the OCI
// image config has no HEALTHCHECK. docs/operations.md says how to run it.
// Usage: node scripts/image.js [--tag NAME] (default localhost/berth:<version>)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { APP, CA_FILE, DATA, NODE, stageRootfs, UID } from './image-rootfs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const { values } = parseArgs({ options: { tag: { type: 'string', default: `localhost/berth:${version}` } } });

const API_PORT = 8080;
const REGISTRY_PORT = 5000;

function buildah(args) {
  const r = spawnSync('buildah', args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (r.error) throw new Error(`buildah: ${r.error.message} (Debian package buildah)`);
  if (r.status !== 0) throw new Error(`buildah ${args[0]} failed: ${r.stderr.slice(0, 2000)}`);
  return r.stdout.trim();
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'berth-image-'));
  let ctr;
  try {
    const stage = join(work, 'rootfs');
    mkdirSync(stage);
    stageRootfs(root, stage, work);
    const data = join(work, 'data');
    mkdirSync(data, { mode: 0o700 });
    ctr = buildah(['from', '--format', 'docker', 'scratch']);
    buildah(['copy', '--chown', '0:0', '--quiet', ctr, `${stage}/`, '/']);
    buildah(['copy', '--chown', `${UID}:${UID}`, '--quiet', ctr, `${data}/`, DATA]);
    buildah([
      'config',
      '--user',
      `${UID}:${UID}`,
      '--workingdir',
      APP,
      '--env',
      `NODE_EXTRA_CA_CERTS=${CA_FILE}`,
      '--env',
      'NODE_ENV=production',
      '--volume',
      DATA,
      '--port',
      `${API_PORT}/tcp`,
      '--port',
      `${REGISTRY_PORT}/tcp`,
      '--stop-signal',
      'SIGTERM',
      '--entrypoint',
      JSON.stringify([
        NODE,
        `${APP}/dist/src/cli/main.js`,
        'serve',
        '--listen',
        `0.0.0.0:${API_PORT}`,
        '--registry-listen',
        `0.0.0.0:${REGISTRY_PORT}`,
        '--data',
        DATA,
      ]),
      '--cmd',
      '[]',
      '--healthcheck',
      `CMD ${NODE} ${APP}/healthcheck.js`,
      '--healthcheck-interval',
      '30s',
      '--healthcheck-timeout',
      '5s',
      '--healthcheck-start-period',
      '30s',
      '--healthcheck-retries',
      '3',
      '--label',
      `org.opencontainers.image.title=berth`,
      '--label',
      `org.opencontainers.image.version=${version}`,
      '--label',
      'org.opencontainers.image.licenses=Apache-2.0',
      ctr,
    ]);
    const id = buildah(['commit', '--format', 'docker', '--rm', '--quiet', ctr, values.tag]);
    ctr = undefined;
    const size = buildah(['images', '--format', '{{.Size}}', values.tag]);
    process.stdout.write(`${values.tag} ${id.slice(0, 12)} ${size}\n`);
  } finally {
    if (ctr) spawnSync('buildah', ['rm', ctr]);
    rmSync(work, { recursive: true, force: true });
  }
}

main();
