// The berth CLI's resource commands, run as a child process against a real
// server. Commands for services not routed yet are skipped, not failed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { seedImage } from '../harness/registry-content.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test's environment without settings that would point the CLI elsewhere. */
function cliEnv(configDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
  delete env.BERTH_API;
  delete env.BERTH_CREDENTIALS;
  return env;
}

describe('berth CLI resource commands', () => {
  let berth: Berth;
  let configDir: string;

  function berthCli(...args: string[]): Promise<Run> {
    return berthCliWith({}, ...args);
  }

  function berthCliWith(extraEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env: { ...cliEnv(configDir), ...extraEnv } }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  async function ok(...args: string[]): Promise<string> {
    const r = await berthCli(...args);
    assert.equal(r.code, 0, `berth ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  }

  /** Skips the test when the server does not route this service yet. */
  before(async () => {
    berth = await startBerth();
    configDir = mkdtempSync(join(tmpdir(), 'berth-cli-'));
    const login = await berthCli('auth', 'login', '--credentials', berth.credentialsFile);
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await berth.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('creates, lists, updates and deletes repos', async () => {
    const created = await ok('images', 'repos', 'create', 'cli-nginx', '--description', 'web server', '-o', 'json');
    const repo = JSON.parse(created) as { uid: string; name: string; description: string };
    assert.equal(repo.name, 'cli-nginx');
    assert.equal(repo.description, 'web server');
    assert.ok(repo.uid.startsWith(`${berth.orgUid}/`));

    const id = (await ok('images', 'repos', 'create', 'cli-app', '-o', 'id')).trim();
    assert.match(id, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));

    const listed = JSON.parse(await ok('images', 'repos', 'list', '-o', 'json')) as { uid: string; name: string }[];
    assert.ok(Array.isArray(listed));
    assert.deepEqual(
      listed
        .map((r) => r.name)
        .filter((n) => n.startsWith('cli-'))
        .sort(),
      ['cli-app', 'cli-nginx'],
    );

    const ids = (await ok('images', 'repos', 'list', '--name', 'cli-nginx', '-o', 'id')).trim().split('\n');
    assert.deepEqual(ids, [repo.uid]);

    const table = await ok('images', 'repos', 'list', '--parent', berth.orgUid);
    const [header, ...rows] = table.trimEnd().split('\n');
    assert.match(header, /^UID\s+NAME\s+DESCRIPTION\s+CREATED$/);
    const nginxRow = rows.find((r) => r.includes('cli-nginx'));
    assert.ok(nginxRow?.includes('web server'), table);
    assert.equal(header.indexOf('NAME'), nginxRow!.indexOf('cli-nginx'), 'columns are aligned');

    const updated = JSON.parse(await ok('images', 'repos', 'update', repo.uid, '--description', 'changed', '-o', 'json')) as typeof repo;
    assert.equal(updated.description, 'changed');
    assert.equal(updated.name, 'cli-nginx');

    assert.equal((await ok('images', 'repos', 'delete', repo.uid, '-o', 'id')).trim(), repo.uid);
    assert.match(await ok('images', 'repos', 'delete', id), /^Deleted /);
    const after = JSON.parse(await ok('images', 'repos', 'list', '-o', 'json')) as { name: string }[];
    assert.ok(!after.some((r) => r.name.startsWith('cli-')));
  });

  it('follows page tokens to list every repo', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await ok('images', 'repos', 'create', `page-${i}`, '-o', 'id')).trim());
    const all = await berthCliWith({}, 'images', 'repos', 'list', '-o', 'id');
    const paged = await berthCliWith({ BERTH_PAGE_SIZE: '2' }, 'images', 'repos', 'list', '-o', 'id');
    assert.equal(paged.code, 0, paged.stderr);
    assert.equal(paged.stdout, all.stdout, 'pages of 2 walk the same list as one page');
    const ids = paged.stdout.trim().split('\n');
    assert.equal(new Set(ids).size, ids.length, 'no duplicates across pages');
    for (const uid of made) assert.ok(ids.includes(uid));
    for (const uid of made) await ok('images', 'repos', 'delete', uid);
  });

  it('prints the API message and exits 1 on an API error, without a stack or token', async () => {
    const bad = await berthCli('images', 'repos', 'create', 'Bad Name');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^berth: Invalid argument: /);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
    assert.equal(bad.stdout, '');

    const missing = await berthCli('images', 'repos', 'delete', `${berth.orgUid}/0000000000000000`);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^berth: Not found/);
    assert.doesNotMatch(missing.stderr, /eyJ/);

    const nothing = await berthCli('images', 'repos', 'update', `${berth.orgUid}/0000000000000000`);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /^berth: nothing to update/);
  });

  it('auth status prints the name of the signed-in owner (a caller may read its own identity)', async () => {
    const status = JSON.parse(await ok('auth', 'status', '-o', 'json'));
    assert.equal(status.identity, berth.ownerIdentity);
    assert.equal(status.name, 'owner');
    assert.match(await ok('auth', 'status'), /^Name: +owner$/m);
  });

  it('says to log in when there are no credentials', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'berth-cli-empty-'));
    const r = await new Promise<Run>((resolve) => {
      execFile(process.execPath, [CLI, 'images', 'repos', 'list'], { env: cliEnv(empty) }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    rmSync(empty, { recursive: true, force: true });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not logged in/);
  });

  it('names the URL and the cause when the server cannot be reached', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const api = `http://127.0.0.1:${closed}`;
    for (const args of [
      ['images', 'repos', 'list', '--api', api],
      ['auth', 'token', '--api', api],
    ]) {
      const r = await berthCli(...args);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`^berth: cannot reach the Berth API at ${api} \\(ECONNREFUSED\\)`), r.stderr);
      assert.doesNotMatch(r.stderr, /fetch failed|\n\s+at /);
    }
  });

  it('lists groups below the organization', async () => {
    const r = await berthCli('iam', 'groups', 'list', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Array.isArray(JSON.parse(r.stdout)));
    const table = await ok('iam', 'groups', 'list');
    assert.match(table.split('\n')[0], /^UID\s+NAME\s+DESCRIPTION\s+CREATED$/);
  });

  it('binds the built-in viewer role by name', async () => {
    const ident = await berthCli('iam', 'identities', 'create', 'cli-robot', '--issuer', 'https://ci.example', '--subject', 'cli-robot', '-o', 'id');
    assert.equal(ident.code, 0, ident.stderr);
    const identityUid = ident.stdout.trim();

    const created = await berthCli('iam', 'role-bindings', 'create', '--identity', identityUid, '--role', 'viewer', '-o', 'json');
    assert.equal(created.code, 0, created.stderr);
    const binding = JSON.parse(created.stdout) as { uid: string; role: { name: string; uid: string }; identity: { uid: string } };
    assert.equal(binding.role.name, 'viewer');
    assert.equal(binding.identity.uid, identityUid);

    const table = await ok('iam', 'role-bindings', 'list', '--identity', identityUid);
    assert.match(table.split('\n')[0], /^UID\s+IDENTITY\s+ROLE\s+GROUP$/);
    assert.match(table, /cli-robot\s+viewer/);

    const unknown = await berthCli('iam', 'role-bindings', 'create', '--identity', identityUid, '--role', 'no-such-role');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^berth: no role named "no-such-role"/);

    await ok('iam', 'role-bindings', 'delete', binding.uid);
    await ok('iam', 'identities', 'delete', identityUid);
  });

  it('creates, updates and deletes a group', async () => {
    const r = await berthCli('iam', 'groups', 'create', 'cli-team', '--description', 'Team', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const group = JSON.parse(r.stdout) as { uid: string; name: string };
    assert.ok(group.uid.startsWith(`${berth.orgUid}/`));
    assert.deepEqual((await ok('iam', 'groups', 'list', '--name', 'cli-team', '-o', 'id')).trim().split('\n'), [group.uid]);
    const renamed = JSON.parse(await ok('iam', 'groups', 'update', group.uid, '--name', 'cli-team-b', '-o', 'json')) as { name: string; description: string };
    assert.equal(renamed.name, 'cli-team-b');
    assert.equal(renamed.description, 'Team');
    await ok('iam', 'groups', 'delete', group.uid);
    const org = JSON.parse(await ok('iam', 'groups', 'create', 'cli-org.example', '--root', '-o', 'json')) as { uid: string };
    assert.match(org.uid, /^[0-9a-f]{40}$/);
  });

  it('creates a custom role with capabilities and deletes it', async () => {
    const r = await berthCli('iam', 'roles', 'create', 'cli-reader', '--capabilities', 'CAP_REPO_LIST,CAP_TAG_LIST', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const role = JSON.parse(r.stdout) as { uid: string; capabilities: string[] };
    assert.deepEqual([...role.capabilities].sort(), ['CAP_REPO_LIST', 'CAP_TAG_LIST']);
    const viewer = (await ok('iam', 'roles', 'list', '--name', 'viewer', '-o', 'id')).trim();
    assert.match(viewer, /^[0-9a-f]{40}$/);
    await ok('iam', 'roles', 'delete', role.uid);
  });

  it('creates, lists and deletes tags of a repo', async () => {
    const repo = (await ok('images', 'repos', 'create', 'cli-tagged', '-o', 'id')).trim();
    const digest = await seedImage(berth, repo);
    const r = await berthCli('images', 'tags', 'create', 'latest', '--repo', repo, '--digest', digest, '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const tag = JSON.parse(r.stdout) as { uid: string; name: string; digest: string };
    assert.equal(tag.digest, digest);
    await ok('images', 'tags', 'create', 'old', '--repo', repo, '--digest', digest, '--deprecated');
    const table = await ok('images', 'tags', 'list', '--repo', repo);
    assert.match(table.split('\n')[0], /^NAME\s+DIGEST\s+DEPRECATED\s+UPDATED$/);
    assert.match(table, new RegExp(`old\\s+${digest}\\s+yes`));
    assert.match(table, new RegExp(`latest\\s+${digest}\\s+no`));
    const bad = await berthCli('images', 'tags', 'create', 'x', '--repo', repo, '--digest', 'md5:1');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^berth: --digest must be sha256/);
    for (const uid of (await ok('images', 'tags', 'list', '--repo', repo, '-o', 'id')).trim().split('\n')) await ok('images', 'tags', 'delete', uid);
    assert.equal(await ok('images', 'tags', 'list', '--repo', repo, '-o', 'id'), '');
    await ok('images', 'repos', 'delete', repo);
  });

  it('creates a static-keys identity from a JWKS file and updates it', async () => {
    const { exportJWK, generateKeyPair } = await import('jose');
    const { publicKey } = await generateKeyPair('ES256');
    const jwks = join(configDir, 'jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }));
    const r = await berthCli(
      'iam',
      'identities',
      'create',
      'cli-deployer',
      '--static-keys-file',
      jwks,
      '--issuer',
      'https://ci.example',
      '--subject',
      'deployer',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    const identity = JSON.parse(r.stdout) as { uid: string; staticKeys?: { subject: string } };
    assert.equal(identity.staticKeys?.subject, 'deployer');
    const updated = JSON.parse(await ok('iam', 'identities', 'update', identity.uid, '--description', 'deploys', '-o', 'json')) as { description: string };
    assert.equal(updated.description, 'deploys');
    assert.ok((await ok('iam', 'identities', 'list', '-o', 'id')).split('\n').includes(identity.uid));
    const half = await berthCli('iam', 'identities', 'create', 'x', '--static-keys-file', jwks);
    assert.equal(half.code, 1);
    assert.match(half.stderr, /^berth: --static-keys-file needs --issuer and --subject/);
    await ok('iam', 'identities', 'delete', identity.uid);
  });
});
