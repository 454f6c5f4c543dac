// berth iam identity-providers and external-group-mappings, run as a child
// process against a real server: CRUD in every output format, groups, roles
// and providers named by name or uid (an ambiguous name is an error listing
// the candidates), the client secret read from a file or stdin and never
// printed, and batch deletion of mappings.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';
const SECRET = `cli-secret-${randomBytes(8).toString('hex')}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('berth iam identity-providers and external-group-mappings', () => {
  let berth: Berth;
  let dir: string;
  let team: string;
  let secretFile: string;

  function berthCli(args: string[], input?: string): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: join(dir, 'config') };
    delete env.BERTH_API;
    delete env.BERTH_CREDENTIALS;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      child.stdin.end(input ?? '');
    });
  }
  async function ok(args: string[], input?: string): Promise<string> {
    const r = await berthCli(args, input);
    assert.equal(r.code, 0, `berth ${args.join(' ')} failed:\n${r.stderr}`);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), 'the secret is never printed');
    return r.stdout;
  }
  const sealedOf = async (uid: string) =>
    (await sqlQuery(berth, 'select client_secret from identity_providers where uid = $1', [uid]))[0].client_secret as string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-idp-cli-'));
    const keyFile = join(dir, 'secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    secretFile = join(dir, 'secret.txt');
    writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
    berth = await startBerth({ extraArgs: ['--secrets-key-file', keyFile] });
    const login = await berthCli(['auth', 'login', '--credentials', berth.credentialsFile]);
    assert.equal(login.code, 0, login.stderr);
    const token = ownerToken(berth.credentialsFile);
    team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'team' } })).json.uid;
    // Two groups named "twin": a name that must not be guessed.
    await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'twin' } });
    await rest(berth.url, 'POST', `/iam/v2/groups/${team}`, { token, body: { name: 'twin' } });
  });
  after(async () => {
    await berth.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, shows, lists, updates and deletes identity providers, naming groups and roles by name', async () => {
    const created = JSON.parse(
      await ok([
        'iam',
        'identity-providers',
        'create',
        'corp-sso',
        '--issuer',
        'https://login.example.com',
        '--client-id',
        'berth',
        '--client-secret-file',
        secretFile,
        '--default-role',
        'viewer',
        '--scopes',
        'groups, offline_access',
        '--groups-claim',
        'groups',
        '--pkce',
        '-o',
        'json',
      ]),
    );
    assert.equal(created.name, 'corp-sso');
    assert.equal(created.defaultRole, VIEWER_UID);
    assert.deepEqual(created.oidc, {
      issuer: 'https://login.example.com',
      clientId: 'berth',
      additionalScopes: ['groups', 'offline_access'],
      groupsClaim: 'groups',
      pkceEnabled: true,
    });
    assert.ok(created.uid.startsWith(`${berth.orgUid}/`));
    const sealed = await sealedOf(created.uid);
    assert.match(sealed, /^sealed:v1:/);

    const inTeam = (
      await ok([
        'iam',
        'identity-providers',
        'create',
        'team-sso',
        '--parent',
        'team',
        '--issuer',
        'https://team.example.com',
        '--client-id',
        'x',
        '--default-role',
        VIEWER_UID,
        '-o',
        'id',
      ])
    ).trim();
    assert.match(inTeam, new RegExp(`^${team}/[0-9a-f]{16}$`));

    const table = await ok(['iam', 'identity-providers', 'get', 'corp-sso']);
    const [header, row] = table.trimEnd().split('\n');
    assert.match(header, /^UID\s+NAME\s+ISSUER\s+CLIENT ID\s+DEFAULT ROLE$/);
    assert.ok(row.startsWith(created.uid) && row.includes('https://login.example.com'), table);
    // Get shows the provider as created, and its SCIM state (not set up yet).
    const { scim, ...got } = JSON.parse(await ok(['iam', 'identity-providers', 'get', created.uid, '-o', 'json']));
    assert.deepEqual(got, created);
    assert.deepEqual([scim.enabled, scim.credentialState], [false, 'CREDENTIAL_STATE_NOT_ISSUED']);
    const all = (await ok(['iam', 'identity-providers', 'list', '-o', 'id'])).trim().split('\n');
    assert.deepEqual(all.sort(), [created.uid, inTeam].sort());
    assert.deepEqual((await ok(['iam', 'identity-providers', 'list', '--parent', 'team', '-o', 'id'])).trim().split('\n'), [inTeam]);

    const moved = JSON.parse(await ok(['iam', 'identity-providers', 'update', 'corp-sso', '--issuer', 'https://sso.example.com', '--no-pkce', '-o', 'json']));
    assert.deepEqual(moved.oidc, {
      issuer: 'https://sso.example.com',
      clientId: 'berth',
      additionalScopes: ['groups', 'offline_access'],
      groupsClaim: 'groups',
      pkceEnabled: false,
    });
    assert.equal(await sealedOf(created.uid), sealed, 'an update without a secret keeps it');
    await ok(['iam', 'identity-providers', 'update', created.uid, '--client-secret-file', '-'], `${SECRET}-rotated\n`);
    const rotated = await sealedOf(created.uid);
    assert.match(rotated, /^sealed:v1:/);
    assert.notEqual(rotated, sealed);
    await ok(['iam', 'identity-providers', 'update', 'corp-sso', '--clear-client-secret']);
    assert.equal(await sealedOf(created.uid), '');
    const nothing = await berthCli(['iam', 'identity-providers', 'update', 'corp-sso']);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /nothing to update/);

    assert.equal((await ok(['iam', 'identity-providers', 'delete', 'team-sso', '-o', 'id'])).trim(), inTeam);
    assert.deepEqual((await ok(['iam', 'identity-providers', 'list', '-o', 'id'])).trim().split('\n'), [created.uid]);
  });

  it('refuses an ambiguous or unknown name, listing the candidates', async () => {
    const ambiguous = await berthCli([
      'iam',
      'identity-providers',
      'create',
      'twin-sso',
      '--parent',
      'twin',
      '--issuer',
      'https://login.example.com',
      '--client-id',
      'c',
      '--default-role',
      'viewer',
    ]);
    assert.equal(ambiguous.code, 1);
    const twins = (await sqlQuery(berth, "select uid from groups where name = 'twin' order by uid")).map((r) => r.uid as string);
    assert.equal(twins.length, 2);
    assert.match(ambiguous.stderr, /^berth: 2 groups are named "twin"; give the uid of one of them:/);
    for (const uid of twins) assert.ok(ambiguous.stderr.includes(`  ${uid}`), ambiguous.stderr);
    const unknownRole = await berthCli([
      'iam',
      'identity-providers',
      'create',
      'x-sso',
      '--issuer',
      'https://a.example.com',
      '--client-id',
      'c',
      '--default-role',
      'no-such-role',
    ]);
    assert.equal(unknownRole.code, 1);
    assert.match(unknownRole.stderr, /no role named "no-such-role"/);
    const missingFile = await berthCli([
      'iam',
      'identity-providers',
      'create',
      'x-sso',
      '--issuer',
      'https://a.example.com',
      '--client-id',
      'c',
      '--default-role',
      'viewer',
      '--client-secret-file',
      join(dir, 'nope'),
    ]);
    assert.equal(missingFile.code, 1);
    assert.match(missingFile.stderr, /cannot read the client secret/);
  });

  it('creates, lists, shows and deletes external group mappings, several at once', async () => {
    const provider = (
      await ok([
        'iam',
        'identity-providers',
        'create',
        'map-sso',
        '--issuer',
        'https://map.example.com',
        '--client-id',
        'c',
        '--default-role',
        'viewer',
        '-o',
        'id',
      ])
    ).trim();
    const eng = JSON.parse(
      await ok(['iam', 'external-group-mappings', 'create', '--identity-provider', 'map-sso', '--group', 'engineering', '--role', 'viewer', '-o', 'json']),
    );
    assert.equal(eng.identityProviderUid, provider);
    assert.equal(eng.roleUid, VIEWER_UID);
    assert.equal(eng.scope, berth.orgUid);
    const ops = JSON.parse(
      await ok([
        'iam',
        'external-group-mappings',
        'create',
        '--identity-provider',
        provider,
        '--group',
        'ops',
        '--role',
        VIEWER_UID,
        '--scope',
        'team',
        '-o',
        'json',
      ]),
    );
    assert.equal(ops.scope, team);
    const third = (
      await ok(['iam', 'external-group-mappings', 'create', '--identity-provider', provider, '--group', 'x', '--role', 'viewer', '-o', 'id'])
    ).trim();
    const listed = (await ok(['iam', 'external-group-mappings', 'list', '--identity-provider', 'map-sso', '-o', 'id'])).trim().split('\n');
    assert.deepEqual(listed, [eng.uid, ops.uid, third].sort());
    const table = await ok(['iam', 'external-group-mappings', 'get', eng.uid]);
    assert.match(table.split('\n')[0], /^UID\s+EXTERNAL GROUP\s+ROLE\s+SCOPE\s+CREATED$/);
    assert.ok(table.includes('engineering'));
    const both = (await ok(['iam', 'external-group-mappings', 'delete', eng.uid, ops.uid, '-o', 'id'])).trim().split('\n');
    assert.deepEqual(both, [eng.uid, ops.uid].sort());
    assert.match(await ok(['iam', 'external-group-mappings', 'delete', third]), /^Deleted /);
    assert.equal((await ok(['iam', 'external-group-mappings', 'list', '--identity-provider', provider, '-o', 'id'])).trim(), '');
    const mixed = await berthCli([
      'iam',
      'external-group-mappings',
      'delete',
      `${provider}/0000000000000000`,
      `${berth.orgUid}/0000000000000000/0000000000000000`,
    ]);
    assert.equal(mixed.code, 1);
    assert.match(mixed.stderr, /different identity providers/);
  });
});
