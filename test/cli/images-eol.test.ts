// `berth images eol ORG/IMAGE` as a child process against a real server: the
// table (stream, dates, statuses) and -o json (the API's items), after the
// operator imported the lifecycle data; an unknown image fails with a message.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { seedImage } from '../harness/registry-content.js';
import { day, eolCli, nodejsV1 } from '../registry/eol-fixtures.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('berth images eol', () => {
  let berth: Berth;
  let configDir: string;

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

  before(async () => {
    berth = await startBerth();
    const token = ownerToken(berth.credentialsFile);
    configDir = mkdtempSync(join(tmpdir(), 'berth-eol-cli-'));
    assert.equal((await berthCli('auth', 'login', '--credentials', berth.credentialsFile)).code, 0);
    const file = join(configDir, 'nodejs.json');
    writeFileSync(file, JSON.stringify(nodejsV1()));
    const imported = await eolCli(berth, ['import', file]);
    assert.equal(imported.code, 0, imported.stderr);
    const repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'node' } })).json.uid as string;
    const digest = await seedImage(berth, repo);
    for (const name of ['24', '23.1.0', '16', '17']) await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name, digest } });
  });
  after(async () => {
    await berth.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('prints the table', async () => {
    const r = await berthCli('images', 'eol', `${berth.orgName}/node`);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^TAG\s+PRODUCT\s+STREAM\s+LTS\s+RELEASED\s+EOL\s+STATUS\s+GRACE\s+GRACE ENDS$/);
    const row = (tag: string) => lines.find((l) => l.startsWith(`${tag} `))?.split(/\s+/);
    assert.deepEqual(row('24'), ['24', 'nodejs', '24', 'yes', '2025-05-06', '2028-04-30', 'ACTIVE', 'ELIGIBLE', '2028-10-30']);
    assert.deepEqual(row('23.1.0')?.slice(0, 8), ['23.1.0', 'nodejs', '23', 'no', '2024-10-16', day(-30), 'IN_GRACE', 'ACTIVE']);
    assert.deepEqual(row('16'), ['16', 'nodejs', '16', 'yes', '2021-04-20', '2023-09-11', 'INACTIVE', 'EXPIRED', '2024-03-11']);
    assert.deepEqual(row('17'), ['17', 'nodejs', '(unknown)', 'no', '-', '-', 'ACTIVE', 'NOT_ELIGIBLE', '-']);
  });

  it('prints the API items with -o json, and fails on an unknown image', async () => {
    const r = await berthCli('images', 'eol', `${berth.orgName}/node`, '-o', 'json', '--name', '16');
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout);
    assert.equal(items.length, 1);
    assert.equal(items[0].graceStatus, 'GRACE_EXPIRED');
    assert.equal(items[0].mainPackageVersion.latestVersion, '16.20.2');
    const missing = await berthCli('images', 'eol', `${berth.orgName}/nope`);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no repo named "nope"/);
  });
});
