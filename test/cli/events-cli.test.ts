// berth events subscriptions, run as a child process against a real server:
// create under a group named by uid or name, with a signing secret from a
// file or stdin; list (all, or --parent); get; delete; the three output
// formats; the API's refusal of a bad sink shown with its field.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { BerthCli } from '../harness/berth-cli.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

interface Subscription {
  uid: string;
  sink: string;
  signed?: boolean;
  createTime?: string;
}

describe('berth events subscriptions', () => {
  let berth: Berth;
  let token: string;
  let work: string;
  let team: string;
  const cli = new BerthCli();
  const json = async <T>(...args: string[]): Promise<T> => JSON.parse(await cli.ok(...args, '-o', 'json')) as T;

  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    work = mkdtempSync(join(tmpdir(), 'berth-events-cli-'));
    team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'events-team' } })).json.uid as string;
    await cli.ok('auth', 'login', '--credentials', berth.credentialsFile);
  });
  after(async () => {
    await berth.stop();
    cli.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it('creates in the organization by default and in a group named by name or uid, in each output format', async () => {
    const inOrg = await json<Subscription>('events', 'subscriptions', 'create', 'https://hooks.example.com/org');
    assert.ok(inOrg.uid.startsWith(`${berth.orgUid}/`));
    assert.equal(inOrg.sink, 'https://hooks.example.com/org');
    assert.equal(inOrg.signed, false);

    const byName = (await cli.ok('events', 'subscriptions', 'create', 'https://hooks.example.com/team', '--parent', 'events-team', '-o', 'id')).trim();
    assert.match(byName, new RegExp(`^${team}/[0-9a-f]{16}$`));
    const table = await cli.ok('events', 'subscriptions', 'create', 'https://hooks.example.com/team2', '--parent', team);
    const [header, row] = table.trimEnd().split('\n');
    assert.match(header, /^UID\s+SINK\s+SIGNED\s+CREATED$/);
    assert.match(row, new RegExp(`^${team}/[0-9a-f]{16}\\s+https://hooks\\.example\\.com/team2\\s+no\\s+\\d{4}-`));

    const listed = await json<Subscription[]>('events', 'subscriptions', 'list', '--parent', 'events-team');
    assert.deepEqual(listed.map((s) => s.sink).sort(), ['https://hooks.example.com/team', 'https://hooks.example.com/team2']);
    const all = (await cli.ok('events', 'subscriptions', 'list', '-o', 'id')).trim().split('\n');
    assert.ok(all.includes(inOrg.uid) && all.includes(byName), 'list without --parent shows every subscription the caller may see');

    const got = await json<Subscription>('events', 'subscriptions', 'get', byName);
    assert.equal(got.sink, 'https://hooks.example.com/team');
    assert.equal(await cli.ok('events', 'subscriptions', 'delete', byName), `Deleted ${byName}\n`);
    const gone = await cli.fails('events', 'subscriptions', 'get', byName);
    assert.match(gone, /not found/);
  });

  it('reads the signing secret from a file or stdin and never prints it', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const file = join(work, 'secret.txt');
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    const out = await cli.ok('events', 'subscriptions', 'create', 'https://signed.example.com/', '--signing-secret-file', file, '-o', 'json');
    assert.ok(!out.includes(secret.slice(6)));
    const created = JSON.parse(out) as Subscription;
    assert.equal(created.signed, true);
    const [row] = await sqlQuery(berth, 'select signing_secret from event_subscriptions where uid = $1', [created.uid]);
    assert.equal(row.signing_secret, secret, 'the file content, without its newline, is what was sent');

    const viaStdin = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        [CLI, 'events', 'subscriptions', 'create', 'https://signed.example.com/stdin', '--signing-secret-file', '-', '-o', 'json'],
        { env: { ...process.env, BERTH_CONFIG_DIR: cli.configDir } },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      );
      child.stdin!.end(secret);
    });
    assert.equal((JSON.parse(viaStdin) as Subscription).signed, true);

    const missing = await cli.fails('events', 'subscriptions', 'create', 'https://signed.example.com/', '--signing-secret-file', join(work, 'nope'));
    assert.match(missing, /cannot read the signing secret/);
    writeFileSync(join(work, 'bad.txt'), 'not-a-secret');
    const bad = await cli.fails('events', 'subscriptions', 'create', 'https://signed.example.com/', '--signing-secret-file', join(work, 'bad.txt'));
    assert.match(bad, /subscription\.signing_secret/);
    assert.ok(!bad.includes('not-a-secret'));
  });

  it('shows why a sink is refused, and helps', async () => {
    const http = await cli.fails('events', 'subscriptions', 'create', 'http://hooks.example.com/', '--parent', 'events-team');
    assert.match(http, /subscription\.sink/);
    assert.match(http, /https/);
    const noGroup = await cli.fails('events', 'subscriptions', 'create', 'https://hooks.example.com/', '--parent', 'no-such-team');
    assert.match(noGroup, /no group named "no-such-team"/);
    const help = await cli.ok('events', 'subscriptions', 'create', '--help');
    assert.match(help, /--signing-secret-file/);
    assert.match(help, /--allow-insecure-sinks/);
    assert.match(help, /openssl rand -base64 32/);
    assert.match(await cli.ok('events', '--help'), /subscriptions/);
  });
});
