// bin/berth.js on a Node.js other than the pinned 24 runs berth in a child on
// the pinned one; the launcher is then the process kill, systemd and a
// container's PID 1 signal, so it must pass SIGTERM/SIGINT/SIGHUP on and exit
// as the child did. It once waited in spawnSync, deaf to signals: the launcher
// died and the server kept serving. Needs a `node` on PATH that is not 24
// (the test runner puts the pinned one first, so it is looked for past it).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const LAUNCHER = join(ROOT, 'bin', 'berth.js');

/** A node executable on PATH (or the usual places) whose major version is not 24; undefined when there is none. */
function hostNode(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin'];
  for (const dir of dirs.filter((d) => d !== '' && !d.includes('node_modules'))) {
    const file = join(dir, 'node');
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    const major = spawnSync(file, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim();
    if (major !== '' && major !== '24') return file;
  }
  return undefined;
}

const node = hostNode();

interface Launched {
  launcher: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills whatever is left of the launcher's process group (the server too), and removes the data. */
  cleanUp(): void;
}

async function launchServe(): Promise<Launched> {
  const data = mkdtempSync(join(tmpdir(), 'berth-launcher-'));
  // Its own process group, so a server the launcher failed to stop is still found and killed.
  const launcher = spawn(node!, [LAUNCHER, 'serve', '--listen', '127.0.0.1:0', '--registry-listen', 'off', '--data', data, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => launcher.once('exit', (code, signal) => r({ code, signal })));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`berth did not start in time:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /berth is serving at (http\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    launcher.stdout!.on('data', onData);
    launcher.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`the launcher exited:\n${out}`)));
  });
  return {
    launcher,
    url,
    exited,
    cleanUp() {
      try {
        process.kill(-launcher.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** Resolves with how the launcher exited, or rejects after `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms).unref())]);
}

describe('bin/berth.js on a host Node.js that is not 24', { skip: node === undefined && 'no node other than 24 on this machine' }, () => {
  it('stops the server on SIGTERM to the launcher and exits 0 as the server did', async () => {
    const s = await launchServe();
    try {
      assert.ok(await answers(s.url), 'the server answers before the signal');
      s.launcher.kill('SIGTERM');
      const how = await within(s.exited, 15_000, 'the launcher exits');
      assert.deepEqual(how, { code: 0, signal: null });
      assert.equal(await answers(s.url), false, 'the server no longer answers');
    } finally {
      s.cleanUp();
    }
  });

  it('dies of SIGHUP as the server did, and the server is gone', async () => {
    const s = await launchServe();
    try {
      s.launcher.kill('SIGHUP');
      const how = await within(s.exited, 15_000, 'the launcher exits');
      // berth serve does not handle SIGHUP: it dies of it, and so does the launcher.
      assert.deepEqual(how, { code: null, signal: 'SIGHUP' });
      // The child is reaped before the launcher re-raises the signal: nothing is left serving.
      assert.equal(await answers(s.url), false, 'the server no longer answers');
    } finally {
      s.cleanUp();
    }
  });
});
