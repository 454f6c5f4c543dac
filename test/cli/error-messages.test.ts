// Errors that say what is wrong and where: a database that cannot be reached
// or refuses the password is not a "migration failure" (and the password is
// never printed); a damaged credentials file is named with what is wrong in
// it, not as jose's bare "Invalid keyData"; `identities delete` says what it
// deletes (it deletes the identity's role bindings, it does not ask for them
// to be deleted first).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BerthCli } from '../harness/berth-cli.js';
import { startBerth, type Berth } from '../harness/berth-process.js';

/** A local port nothing listens on (bound once, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('database connection errors', () => {
  const cli = new BerthCli();
  const data = mkdtempSync(join(tmpdir(), 'berth-db-errors-'));
  after(() => {
    cli.dispose();
    rmSync(data, { recursive: true, force: true });
  });

  const serve = (database: string) => cli.run('serve', '--listen', '127.0.0.1:0', '--registry-listen', 'off', '--data', data, '--database', database);

  it('reports a refused connection with the host and database, not as a migration', async () => {
    const port = await closedPort();
    for (const r of [
      await serve(`postgres://berth:secret-pw@127.0.0.1:${port}/berthdb`),
      await cli.run('admin', 'recover-owner', '--data', data, '--database', `postgres://berth:secret-pw@127.0.0.1:${port}/berthdb`),
    ]) {
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`));
      assert.match(r.stderr, /database berthdb/);
      assert.doesNotMatch(r.stderr, /migration/);
      assert.doesNotMatch(r.stderr, /secret-pw/);
    }
  });

  it('reports a wrong password as one, naming host, database and user but not the password', {
    skip: !process.env.BERTH_TEST_PG && 'needs PostgreSQL (BERTH_TEST_PG)',
  }, async () => {
    const url = new URL(process.env.BERTH_TEST_PG!);
    url.password = 'not-the-password';
    const r = await serve(url.toString());
    assert.equal(r.code, 1);
    const at = url.port ? url.host : `${url.hostname}:5432`;
    assert.match(
      r.stderr,
      new RegExp(`PostgreSQL at ${at.replace(/\./g, '\\.')} refused the password of user "${url.username}" \\(database ${url.pathname.slice(1)}\\)`),
    );
    assert.doesNotMatch(r.stderr, /migration/);
    assert.doesNotMatch(r.stderr, /not-the-password/);
  });
});

describe('damaged credentials and identity deletion', () => {
  let berth: Berth;
  const cli = new BerthCli();
  before(async () => {
    berth = await startBerth();
  });
  after(async () => {
    cli.dispose();
    await berth?.stop();
  });

  it('names a credentials file whose private key is damaged, and what is wrong with it', async () => {
    const creds = JSON.parse(readFileSync(berth.credentialsFile, 'utf8')) as { privateKey: { d: string } };
    creds.privateKey.d = creds.privateKey.d.slice(0, 10); // truncated: not a P-256 scalar
    const damaged = join(cli.configDir, 'damaged.json');
    writeFileSync(damaged, JSON.stringify(creds), { mode: 0o600 });
    for (const args of [
      ['auth', 'token', '--credentials', damaged],
      ['auth', 'login', '--credentials', damaged],
    ]) {
      const stderr = await cli.fails(...args);
      assert.match(stderr, new RegExp(`credentials ${damaged.replace(/[.]/g, '\\.')}: "privateKey" is not a usable private key`), args.join(' '));
      assert.match(stderr, /recover-owner/);
    }
  });

  it('says that deleting an identity deletes its role bindings, and it does', async () => {
    const help = await cli.ok('iam', 'identities', 'delete', '--help');
    assert.doesNotMatch(help, /delete its role bindings first/);
    assert.match(help, /role bindings are deleted with it/i);
    await cli.ok('auth', 'login', '--credentials', berth.credentialsFile);
    await cli.ok('iam', 'identities', 'create', 'robot');
    const binding = (await cli.ok('iam', 'role-bindings', 'create', '--identity', 'robot', '--role', 'viewer', '-o', 'id')).trim();
    await cli.ok('iam', 'identities', 'delete', 'robot');
    const gone = await cli.fails('iam', 'role-bindings', 'get', binding);
    assert.match(gone, /not found/i);
  });
});
