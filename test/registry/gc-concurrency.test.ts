// gc next to a serving registry and a pushing client: `berth registry gc
// --delete-untagged` (default grace) runs in a loop while skopeo pushes,
// round after round, images made of the same layers into two repos. After
// each round the image is checked, untagged, and everything stored so far is
// dated back past the grace (rows in the database, files on disk), so gc is
// deleting the manifests, links and bytes the next round is pushing again,
// into the same repo and into another, as it pushes them. A push that loses
// a race is refused (its client asked whether a blob was there, then gc took
// it before the manifest; or gc deleted bytes as they were committed again)
// and is retried; what must hold is that a push told it succeeded is
// pullable, whole, while its tag stands, and that every gc run ends cleanly.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { type GcReport, type GcRun, gcCli, RepoClient } from '../harness/registry-gc.js';
import { creds, oneImageCreds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const ROUNDS = 5;
const ATTEMPTS = 4;

function writeBlob(dir: string, bytes: Buffer, mediaType: string) {
  const hex = createHash('sha256').update(bytes).digest('hex');
  writeFileSync(join(dir, 'blobs', 'sha256', hex), bytes);
  return { mediaType, digest: `sha256:${hex}`, size: bytes.length };
}

/** An OCI layout at a new directory holding one image of `layers` and a config unique to `nonce`, tagged `tag`; the manifest digest. */
function layoutOf(layers: Buffer[], nonce: string, tag: string): { dir: string; digest: string } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-gc-race-'));
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  const ls = layers.map((l) => writeBlob(dir, l, 'application/vnd.oci.image.layer.v1.tar+gzip'));
  const config = writeBlob(
    dir,
    Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: ls.map((l) => l.digest) }, config: {}, nonce })),
    'application/vnd.oci.image.config.v1+json',
  );
  const manifest = writeBlob(
    dir,
    Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config, layers: ls })),
    'application/vnd.oci.image.manifest.v1+json',
  );
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({ schemaVersion: 2, manifests: [{ ...manifest, annotations: { 'org.opencontainers.image.ref.name': tag } }] }),
  );
  return { dir, digest: manifest.digest };
}

/** Dates every manifest, blob link and blob file stored so far back past any grace. */
async function dateEverythingBack(berth: Berth): Promise<void> {
  const old = '2000-01-01T00:00:00.000Z';
  await sqlQuery(berth, 'update manifests set push_time = $1', [old]);
  await sqlQuery(berth, 'update repo_blobs set push_time = $1', [old]);
  const root = join(berth.dataDir, 'registry', 'blobs', 'sha256');
  const when = new Date(old);
  for (const prefix of readdirSync(root)) for (const f of readdirSync(join(root, prefix))) utimesSync(join(root, prefix, f), when, when);
}

describe('gc while the server serves and a client pushes', { skip: skopeoMissing }, () => {
  let berth: Berth;

  useBerth((b) => {
    berth = b;
  });

  it('leaves every image a push was told is stored pullable, while gc deletes the same content underneath', async () => {
    const host = registryHost(berth);
    const token = cliToken(berth, host).token;
    const ref = (repo: string, tag: string) => `docker://${host}/${berth.orgName}/${repo}:${tag}`;
    // Many small layers and one larger one: each push and each gc run take many steps, so they interleave.
    const layers = [...Array.from({ length: 12 }, (_, i) => randomBytes(1024 * (i + 1))), randomBytes(256 * 1024)];

    const serverLog: string[] = [];
    berth.process.stdout?.on('data', (d: Buffer) => serverLog.push(d.toString()));
    berth.process.stderr?.on('data', (d: Buffer) => serverLog.push(d.toString()));
    let stop = false;
    const gcRuns: GcRun[] = [];
    const gcLoop = (async () => {
      while (!stop) gcRuns.push(await gcCli(berth, ['--delete-untagged', '-o', 'json']));
    })();

    const refused: string[] = [];
    const pushUntilStored = async (dir: string, repo: string, tag: string) => {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const r = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', token), `oci:${dir}:${tag}`, ref(repo, tag)]);
        if (r.code === 0) return;
        refused.push(`${repo}:${tag} attempt ${attempt}: ${r.stderr.trim().split('\n').pop()}`);
      }
      assert.fail(`${repo}:${tag} was refused ${ATTEMPTS} times:\n${refused.join('\n')}`);
    };
    const assertPullable = async (repo: string, tag: string, digest: string) => {
      const raw = await skopeo(['inspect', '--raw', ...oneImageCreds('_token', token), ref(repo, tag)]);
      assert.equal(raw.code, 0, raw.stderr);
      assert.equal(`sha256:${createHash('sha256').update(raw.stdout).digest('hex')}`, digest);
      // A copy checks every blob's digest as it reads it.
      const back = mkdtempSync(join(tmpdir(), 'berth-gc-pull-'));
      const pulled = await skopeo(['copy', ...creds('src', '_token', token), ref(repo, tag), `oci:${back}:${tag}`]);
      assert.equal(pulled.code, 0, `${repo}:${tag} does not pull after a successful push: ${pulled.stderr}`);
    };

    try {
      const churn = await RepoClient.open(berth, 'churn');
      const mirror = await RepoClient.open(berth, 'mirror');
      for (let round = 0; round < ROUNDS; round++) {
        const tag = `r${round}`;
        const image = layoutOf(layers, `${round}`, tag);
        await Promise.all([pushUntilStored(image.dir, 'churn', tag), pushUntilStored(image.dir, 'mirror', tag)]);
        await assertPullable('churn', tag, image.digest);
        await assertPullable('mirror', tag, image.digest);
        // Untagged and past the grace: the whole image is garbage for gc, just as the next round pushes its layers again.
        await churn.deleteTag(tag);
        await mirror.deleteTag(tag);
        await dateEverythingBack(berth);
      }
      // The last image stays tagged through more gc runs and must still pull.
      const last = layoutOf(layers, 'last', 'last');
      await pushUntilStored(last.dir, 'churn', 'last');
      const runsBefore = gcRuns.length;
      while (gcRuns.length < runsBefore + 2) await new Promise((r) => setTimeout(r, 50));
      await assertPullable('churn', 'last', last.digest);
    } finally {
      stop = true;
      await gcLoop;
      console.log(
        serverLog
          .join('')
          .split('\n')
          .filter((l) => l.includes('"level":50') || l.includes('error'))
          .slice(0, 5)
          .join('\n'),
      );
    }

    assert.ok(gcRuns.length >= 2, 'gc ran during the pushes');
    for (const r of gcRuns) assert.equal(r.code, 0, r.stderr);
    const reports = gcRuns.map((r) => JSON.parse(r.stdout) as GcReport);
    const total = (k: keyof GcReport) => reports.reduce((n, r) => n + Number(r[k]), 0);
    assert.ok(total('manifestsDeleted') >= 2 * ROUNDS, 'gc deleted the untagged images as they appeared');
    assert.ok(total('blobsDeleted') >= ROUNDS, 'and their blobs (at least each config)');
    const failures = serverLog
      .join('')
      .split('\n')
      .filter((l) => /"level":(50|60)/.test(l));
    assert.deepEqual(failures, [], 'the server answered no request with a failure of its own (500)');
    if (refused.length > 0) console.log(`pushes refused and retried:\n${refused.join('\n')}`);
  });
});
