// `berth images history ORG/IMAGE:TAG`, run as a child process against a real
// server: a tag moved across a multi-arch index and a single image, printed
// oldest first with each architecture's image digest and size, in the three
// output formats; a viewer identity's own credentials work; bad references
// and unknown names fail with a message.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { ownerToken, rest } from '../harness/api-client.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { openBerthStore, seedImage, seedIndex, type SeededIndex } from '../harness/registry-content.js';
import { deleteManifest } from '../../src/registry/content/delete-manifest.js';
import { transact } from '../../src/store/transact.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('berth images history', () => {
  let berth: Berth;
  let configDir: string;
  let token: string;
  let repo: string;
  /** linux/amd64 23.14 MB, linux/arm64 22.01 MB, linux/arm/v7 950 B. */
  let index: SeededIndex;
  let single: string;
  let gone: string;
  let times: string[];

  function berthCli(...args: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
    delete env.BERTH_API;
    delete env.BERTH_CREDENTIALS;
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  async function ok(...args: string[]): Promise<string> {
    const r = await berthCli(...args);
    assert.equal(r.code, 0, `berth ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  }

  const moveTag = async (name: string, digest: string) => {
    const r = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name, digest } });
    assert.equal(r.status, 200, r.text);
    return r.json.updateTime as string;
  };

  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    configDir = mkdtempSync(join(tmpdir(), 'berth-history-'));
    assert.equal((await berthCli('auth', 'login', '--credentials', berth.credentialsFile)).code, 0);
    repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'tools/app' } })).json.uid;
    index = await seedIndex(berth, repo, [
      { architecture: 'amd64', layers: [23_140_000 - 200] },
      { architecture: 'arm64', layers: [22_010_000 - 200] },
      { architecture: 'arm', variant: 'v7', layers: [750] },
    ]);
    single = await seedImage(berth, repo, { architecture: 'amd64', layers: [1_500_000 - 200] });
    gone = await seedImage(berth, repo, { architecture: 's390x' });
    times = [];
    for (const digest of [gone, index.digest, single]) {
      times.push(await moveTag('latest', digest));
      // Records a millisecond apart at least, so --start/--end can split them.
      while (new Date().toISOString() <= times[times.length - 1]) await new Promise((r) => setTimeout(r, 1));
    }
    // The first digest is deleted from the repo afterwards: its record stays in the history.
    const store = await openBerthStore(berth);
    try {
      await transact(store, (tx) => deleteManifest(tx, repo, gone));
    } finally {
      await store.close();
    }
  });
  after(async () => {
    await berth.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('prints each move oldest first with every architecture image digest and size', async () => {
    const out = await ok('images', 'history', `${berth.orgName}/tools/app:latest`);
    const [amd, arm, armv7] = index.images;
    assert.equal(
      out,
      [
        `- time: ${times[0]}`,
        `  digest: ${gone}`,
        '  architectures: (the repository no longer holds this manifest)',
        `- time: ${times[1]}`,
        `  digest: ${index.digest}`,
        '  architectures:',
        `    amd64: ${amd.digest} (23.14 MB)`,
        `    arm64: ${arm.digest} (22.01 MB)`,
        `    arm/v7: ${armv7.digest} (950 B)`,
        `- time: ${times[2]}`,
        `  digest: ${single}`,
        '  architectures:',
        `    amd64: ${single} (1.50 MB)`,
        '',
      ].join('\n'),
    );
    // The tag defaults to latest.
    assert.equal(await ok('images', 'history', `${berth.orgName}/tools/app`), out);
  });

  it('prints JSON and bare digests', async () => {
    const records = JSON.parse(await ok('images', 'history', `${berth.orgName}/tools/app:latest`, '-o', 'json'));
    assert.deepEqual(records, [
      { updateTimestamp: times[0], digest: gone, held: false, platforms: [] },
      {
        updateTimestamp: times[1],
        digest: index.digest,
        held: true,
        platforms: index.images.map((i) => ({ architecture: i.architecture, os: 'linux', variant: i.variant ?? '', digest: i.digest, size: i.size })),
      },
      {
        updateTimestamp: times[2],
        digest: single,
        held: true,
        platforms: [{ architecture: 'amd64', os: 'linux', variant: '', digest: single, size: 1_500_000 }],
      },
    ]);
    assert.equal(await ok('images', 'history', `${berth.orgName}/tools/app:latest`, '-o', 'id'), `${gone}\n${index.digest}\n${single}\n`);
    const windowed = await ok('images', 'history', `${berth.orgName}/tools/app:latest`, '-o', 'id', '--start', times[1], '--end', times[2]);
    assert.equal(windowed, `${index.digest}\n`);
  });

  it("works with a viewer identity's own credentials", async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const subject = 'history-reader';
    const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token,
      body: {
        name: subject,
        staticKeys: {
          issuer: 'https://ci.example',
          subject,
          issuerKeys: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }),
        },
      },
    });
    assert.equal(created.status, 200, created.text);
    const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=viewer', { token });
    const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token,
      body: { identityUid: created.json.uid, roleUid: roles.json.roles[0].uid },
    });
    assert.equal(bound.status, 200, bound.text);
    const file = join(configDir, 'viewer.json');
    writeFileSync(
      file,
      JSON.stringify({
        api: berth.url,
        identity: created.json.uid,
        issuer: 'https://ci.example',
        subject,
        privateKey: { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' },
      }),
    );
    const out = await ok('images', 'history', `${berth.orgName}/tools/app:latest`, '--credentials', file, '-o', 'id');
    assert.equal(out, `${gone}\n${index.digest}\n${single}\n`);
  });

  it('names what is missing and exits 1', async () => {
    for (const [reference, message] of [
      ['nginx:latest', /names no organization/],
      [`${berth.orgName}/tools/app@${single}`, /a digest names one image and has no history/],
      [`${berth.orgName}/tools/app:.bad`, /is not a valid tag/],
      [`no-such-org/tools/app:latest`, /no organization named "no-such-org"/],
      [`${berth.orgName}/tools/nope:latest`, new RegExp(`no repo named "tools/nope" in ${berth.orgName}`)],
      [`${berth.orgName}/tools/app:v9`, new RegExp(`no tag named "v9" in ${berth.orgName}/tools/app`)],
    ] as const) {
      const r = await berthCli('images', 'history', reference);
      assert.equal(r.code, 1, `${reference}: ${r.stdout}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
    const badTime = await berthCli('images', 'history', `${berth.orgName}/tools/app`, '--start', 'yesterday');
    assert.equal(badTime.code, 1);
    assert.match(badTime.stderr, /--start must be an RFC 3339 time/);
  });
});
