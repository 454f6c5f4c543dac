// berth iam invites | account-associations | terms, and
// `berth auth login --invite-code`, run as child processes against a real
// server; groups and roles given by name as well as uid.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { ownerToken, rest } from '../harness/api-client.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('berth CLI: invites, account associations, terms', () => {
  let berth: Berth;
  let token: string;
  let work: string;
  let team: string;

  /** Runs berth with its own config directory (so each "person" has their own login). */
  function berthIn(configDir: string, ...args: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
    delete env.BERTH_API;
    delete env.BERTH_CREDENTIALS;
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }
  const owner = () => join(work, 'owner');
  async function ok(...args: string[]): Promise<string> {
    const r = await berthIn(owner(), ...args);
    assert.equal(r.code, 0, `berth ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  }

  /** A static-keys identity below the organization and a credentials file for it. */
  async function person(name: string): Promise<{ uid: string; file: string }> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pub = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const c = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token,
      body: { name, staticKeys: { issuer: 'https://people.example', subject: name, issuerKeys: JSON.stringify({ keys: [pub] }) } },
    });
    assert.equal(c.status, 200, c.text);
    const file = join(work, `${name}.json`);
    const creds = {
      api: berth.url,
      identity: c.json.uid,
      issuer: 'https://people.example',
      subject: name,
      privateKey: { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' },
    };
    writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
    return { uid: c.json.uid, file };
  }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'berth-cli-invites-'));
    const terms = join(work, 'terms.json');
    writeFileSync(terms, JSON.stringify({ documents: [{ id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/tos' }] }));
    berth = await startBerth({ extraArgs: ['--terms-file', terms] });
    token = ownerToken(berth.credentialsFile);
    const login = await berthIn(owner(), 'auth', 'login', '--credentials', berth.credentialsFile);
    assert.equal(login.code, 0, login.stderr);
    team = JSON.parse(await ok('iam', 'groups', 'create', 'cli-team', '-o', 'json')).uid;
  });
  after(async () => {
    await berth.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('creates invites by group and role name, lists, gets and deletes them', async () => {
    const created = JSON.parse(await ok('iam', 'invites', 'create', '--parent', 'cli-team', '--role', 'viewer', '--ttl', '2h', '--single-use', '-o', 'json'));
    assert.ok(created.uid.startsWith(`${team}/`));
    assert.match(created.code, /^binv1\./);
    assert.equal(created.role.name, 'viewer');
    assert.equal(Date.parse(created.expirationTime) - Date.parse(created.createTime), 2 * 3600_000);

    const table = await ok('iam', 'invites', 'list', '--parent', 'cli-team');
    assert.match(table.split('\n')[0], /^UID\s+ROLE\s+EXPIRES\s+SINGLE-USE\s+EMAIL\s+KEY ID$/);
    assert.match(table, new RegExp(`${created.uid}\\s+viewer\\s+\\S+\\s+yes\\s+${created.keyId}`));
    assert.doesNotMatch(table, /binv1\./, 'lists never show codes');
    assert.deepEqual((await ok('iam', 'invites', 'list', '--parent', team, '-o', 'id')).trim().split('\n'), [created.uid]);
    const got = JSON.parse(await ok('iam', 'invites', 'get', created.uid, '-o', 'json'));
    assert.equal(got.code, '');

    const id = await berthIn(owner(), 'iam', 'invites', 'create', '--parent', team, '--role', 'viewer', '-o', 'id');
    assert.equal(id.code, 0, id.stderr);
    assert.match(id.stdout.trim(), new RegExp(`^${team}/[0-9a-f]{16}$`));
    assert.match(id.stderr, /invite code \(shown once\): binv1\./);
    const withCode = await ok('iam', 'invites', 'create', '--role', 'viewer');
    assert.match(withCode.split('\n')[0], /CODE$/);

    assert.equal((await ok('iam', 'invites', 'delete', created.uid, '-o', 'id')).trim(), created.uid);
    const badTtl = await berthIn(owner(), 'iam', 'invites', 'create', '--role', 'viewer', '--ttl', 'soon');
    assert.equal(badTtl.code, 1);
    assert.match(badTtl.stderr, /--ttl must be a duration/);
    const tooLong = await berthIn(owner(), 'iam', 'invites', 'create', '--role', 'viewer', '--ttl', '8d');
    assert.equal(tooLong.code, 1);
    assert.match(tooLong.stderr, /^berth: Invalid argument: group_invite\.ttl: ttl must be at most/);
  });

  it('refuses an ambiguous or unknown group name, listing the candidates', async () => {
    const a = JSON.parse(await ok('iam', 'groups', 'create', 'twin', '-o', 'json')).uid as string;
    const b = JSON.parse(await ok('iam', 'groups', 'create', 'twin', '--parent', team, '-o', 'json')).uid as string;
    const r = await berthIn(owner(), 'iam', 'invites', 'create', '--parent', 'twin', '--role', 'viewer');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^berth: 2 groups are named "twin"; give the uid of one of them:/);
    assert.ok(r.stderr.includes(a) && r.stderr.includes(b), r.stderr);
    const none = await berthIn(owner(), 'iam', 'terms', 'list', '--parent', 'no-such-group');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^berth: no group named "no-such-group"/);
    await ok('iam', 'groups', 'delete', b);
    await ok('iam', 'groups', 'delete', a);
  });

  it('joins a group with berth auth login --invite-code', async () => {
    const code = JSON.parse(await ok('iam', 'invites', 'create', '--parent', 'cli-team', '--role', 'editor', '--single-use', '-o', 'json')).code as string;
    const kim = await person('kim');
    const kimConfig = join(work, 'kim');
    const joined = await berthIn(kimConfig, 'auth', 'login', '--credentials', kim.file, '--invite-code', code);
    assert.equal(joined.code, 0, joined.stderr);
    assert.match(joined.stderr, /Logged in to .* as /);
    assert.match(joined.stderr, new RegExp(`Joined cli-team \\(${team}\\) as editor`));
    // Kim is logged in and now an editor of the team.
    const repo = await berthIn(kimConfig, 'images', 'repos', 'create', 'kims-repo', '--parent', team, '-o', 'id');
    assert.equal(repo.code, 0, repo.stderr);

    const lee = await person('lee');
    const leeConfig = join(work, 'lee');
    const used = await berthIn(leeConfig, 'auth', 'login', '--credentials', lee.file, '--invite-code', code);
    assert.equal(used.code, 1);
    assert.match(used.stderr, /single use and has been accepted already/);
    const forged = await berthIn(leeConfig, 'auth', 'login', '--credentials', lee.file, '--invite-code', 'binv1.nope');
    assert.equal(forged.code, 1);
    assert.match(forged.stderr, /the invite code is not valid/);
    assert.match(forged.stderr, /Logged in to /, 'the login itself stands');
  });

  it('creates, reads, updates, checks and deletes an account association by group name', async () => {
    const created = JSON.parse(
      await ok(
        'iam',
        'account-associations',
        'create',
        '--parent',
        'cli-team',
        '--name',
        'clouds',
        '--aws-account',
        '123456789012',
        '--github-installation',
        '12:34:acme',
        '-o',
        'json',
      ),
    );
    assert.equal(created.uid, team);
    assert.deepEqual(created.amazon, { account: '123456789012' });
    assert.deepEqual(created.github, { appInstallations: { '12': { installations: [{ installationId: '34', name: 'acme' }] } } });
    const table = await ok('iam', 'account-associations', 'get', 'cli-team');
    assert.match(table.split('\n')[0], /^GROUP\s+NAME\s+PROVIDERS\s+UPDATED$/);
    assert.match(table, new RegExp(`${team}\\s+clouds\\s+amazon,github`));
    const updated = JSON.parse(
      await ok('iam', 'account-associations', 'update', team, '--gcp-project-id', 'my-project-42', '--gcp-project-number', '42', '-o', 'json'),
    );
    assert.deepEqual(updated.google, { projectId: 'my-project-42', projectNumber: '42' });
    assert.deepEqual(updated.amazon, { account: '123456789012' });
    assert.ok((await ok('iam', 'account-associations', 'list', '-o', 'id')).split('\n').includes(team));
    const notConfigured = await ok('iam', 'account-associations', 'check', 'cli-team', '--provider', 'azure');
    assert.match(notConfigured, /CHECK_STATUS_NOT_READY\s+not configured/);
    const configured = await berthIn(owner(), 'iam', 'account-associations', 'check', 'cli-team', '--provider', 'gcp');
    assert.equal(configured.code, 1);
    assert.match(configured.stderr, /^berth: Unimplemented: Berth does not check Google Cloud associations/);
    const bad = await berthIn(owner(), 'iam', 'account-associations', 'update', team, '--aws-account', '12');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /amazon\.account/);
    assert.match(await ok('iam', 'account-associations', 'delete', 'cli-team'), /^Deleted /);
    const again = await berthIn(owner(), 'iam', 'account-associations', 'delete', 'cli-team');
    assert.equal(again.code, 1, 'deleting it again is NOT_FOUND');
    assert.match(again.stderr, /^berth: Not found/);
  });

  it('accepts terms for a group and lists those that hold for it', async () => {
    const accepted = await ok('iam', 'terms', 'accept', 'tos.v1');
    assert.match(accepted, new RegExp(`${berth.orgUid}\\s+tos\\.v1`));
    const table = await ok('iam', 'terms', 'list', '--parent', 'cli-team');
    assert.match(table.split('\n')[0], /^DOCUMENT\s+GROUP\s+ACCEPTED BY\s+ACCEPTED$/);
    assert.match(table, new RegExp(`tos\\.v1\\s+${berth.orgUid}\\s+${berth.ownerIdentity}`));
    assert.equal((await ok('iam', 'terms', 'list', '--parent', 'cli-team', '-o', 'id')).trim(), 'tos.v1');
    const unknown = await berthIn(owner(), 'iam', 'terms', 'accept', 'nope.v1');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown document "nope\.v1"; offered: tos\.v1/);
  });
});
