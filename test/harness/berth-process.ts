// Starts a real `berth serve` process on a free port, on SQLite (default) or on
// a fresh PostgreSQL database when BERTH_TEST_PG names an admin connection URL.
// Black-box: tests talk to it over sockets only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { after, before } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface Berth {
  url: string;
  /** Where the registry listens (what tests connect to); undefined when started with --registry-listen off. */
  registryUrl?: string;
  /** The registry's public URL (its host is the registry token audience). */
  registryPublicUrl?: string;
  dataDir: string;
  databaseUrl?: string;
  orgUid: string;
  orgName: string;
  ownerIdentity: string;
  credentialsFile: string;
  process: ChildProcess;
  /** The server's last output (up to 64 KiB of stdout and stderr, warnings and errors at the test log level), for a failing test to show. */
  recentLogs(): string;
  /**
   * The server's recent output once `pattern` shows in it (the server writes
   * log lines in batches, at most 20 ms apart); throws after `timeoutMs`.
   */
  logsMatching(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The server's recent output after its log batch interval has passed: what it logged until now is in it. */
  settledLogs(): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const RECENT_LOG_CHARS = 64 * 1024;
/** Longer than the server's log batch interval (20 ms, src/cli/log-format.ts), with room for a busy machine. */
const LOG_BATCH_SETTLE_MS = 200;

export interface StartOptions {
  /** Reuse a database (several instances on one PostgreSQL). */
  databaseUrl?: string;
  dataDir?: string;
  publicUrl?: string;
  org?: string;
  extraArgs?: string[];
  /** Flags for node itself, before the script. */
  nodeArgs?: string[];
  /** Variables added to the server's environment. */
  env?: NodeJS.ProcessEnv;
}

/** Drops a database made by freshDatabase (after every server on it stopped). */
export async function dropDatabase(url: string | undefined): Promise<void> {
  const admin = process.env.BERTH_TEST_PG;
  if (!admin || !url) return;
  const name = new URL(url).pathname.slice(1);
  if (!/^berth_test_[0-9a-f]+$/.test(name)) return;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
}

/** A new, empty PostgreSQL database when BERTH_TEST_PG is set; undefined for SQLite. */
export async function freshDatabase(): Promise<string | undefined> {
  const admin = process.env.BERTH_TEST_PG;
  if (!admin) return undefined;
  const name = `berth_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

export function usingPostgres(): boolean {
  return Boolean(process.env.BERTH_TEST_PG);
}

export async function startBerth(opts: StartOptions = {}): Promise<Berth> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'berth-test-'));
  const databaseUrl = opts.databaseUrl ?? (await freshDatabase());
  const org = opts.org ?? 'example.com';
  const args = [CLI, 'serve', '--listen', '127.0.0.1:0', '--data', dataDir, '--org', org, '--log-level', 'warn'];
  // The registry on a free port too, unless the test chooses.
  if (!(opts.extraArgs ?? []).includes('--registry-listen')) args.push('--registry-listen', '127.0.0.1:0');
  if (databaseUrl) args.push('--database', databaseUrl);
  if (opts.publicUrl) args.push('--public-url', opts.publicUrl);
  args.push(...(opts.extraArgs ?? []));
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  let out = '';
  let onStartOutput: (chunk: Buffer) => void = () => undefined;
  const [url, registryUrl, registryPublicUrl] = await new Promise<[string, string | undefined, string | undefined]>((resolve, reject) => {
    // A start that never comes must not leave its server behind (the test file would hang on it).
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`berth did not start in time:\n${out}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /berth is serving at (http\S+)/.exec(out);
      const r = /registry (?:at (http\S+) \(public URL (http[^;\s]+);|off)/.exec(out);
      if (m && r) {
        clearTimeout(timer);
        resolve([m[1], r[1], r[2]]);
      }
    };
    onStartOutput = onData;
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`berth exited with ${code}:\n${out}`));
    });
  });
  // Logs must not fill the pipe; keep draining, and keep the last of them for a failing test to show.
  child.stdout!.off('data', onStartOutput);
  child.stderr!.off('data', onStartOutput);
  let recent = out.slice(-RECENT_LOG_CHARS); // the start's own lines (warnings) included
  const keep = (chunk: Buffer) => {
    recent = (recent + chunk.toString()).slice(-RECENT_LOG_CHARS);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const credentialsFile = join(dataDir, 'admin-credentials.json');
  let creds: { identity: string; organization: { uid: string; name: string } } = { identity: '', organization: { uid: '', name: '' } };
  try {
    creds = JSON.parse(readFileSync(credentialsFile, 'utf8')) as typeof creds;
  } catch {
    // a second instance on a shared database writes no credentials
  }
  return {
    url,
    registryUrl,
    registryPublicUrl,
    dataDir,
    databaseUrl,
    orgUid: creds.organization.uid,
    orgName: creds.organization.name,
    ownerIdentity: creds.identity,
    credentialsFile,
    process: child,
    recentLogs: () => recent,
    async logsMatching(pattern: RegExp, timeoutMs = 5000) {
      const end = Date.now() + timeoutMs;
      while (!pattern.test(recent)) {
        if (Date.now() > end) throw new Error(`the server did not log ${pattern} within ${timeoutMs} ms; its last output:\n${recent}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return recent;
    },
    async settledLogs() {
      await new Promise((r) => setTimeout(r, LOG_BATCH_SETTLE_MS));
      return recent;
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      const done = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      const code = await done;
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (!opts.databaseUrl) await dropDatabase(databaseUrl);
      return code;
    },
  };
}

/**
 * Registers before/after hooks that start one Berth for the enclosing suite,
 * hand it and an owner token to `set`, and stop it afterwards.
 */
export function useBerth(set: (berth: Berth, ownerToken: string) => void | Promise<void>, opts: StartOptions = {}): void {
  let started: Berth | undefined;
  before(async () => {
    started = await startBerth(opts);
    const { ownerToken } = await import('./api-client.js');
    await set(started, ownerToken(started.credentialsFile));
  });
  after(async () => {
    await started?.stop();
  });
}
