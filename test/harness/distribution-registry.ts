// Starts Debian's docker-registry (distribution 2.8) as a reference registry for
// the conformance port: filesystem storage in a temp dir, deletes enabled, on a
// loopback port the registry picks itself (read back from its "listening on"
// log line). `auth` is pasted into the config as is (the token-auth run uses it).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DOCKER_REGISTRY = '/usr/bin/docker-registry';

export function dockerRegistryInstalled(): boolean {
  return existsSync(DOCKER_REGISTRY);
}

export interface ReferenceRegistry {
  /** host:port */
  address: string;
  dir: string;
  stop(): Promise<void>;
}

export async function startDistribution(opts: { authYaml?: string } = {}): Promise<ReferenceRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-distribution-'));
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: info',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      '  addr: 127.0.0.1:0',
      opts.authYaml ?? '',
      '',
    ].join('\n'),
  );
  // REGISTRY_* variables would override the config file.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REGISTRY_')));
  const child: ChildProcess = spawn(DOCKER_REGISTRY, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`docker-registry did not start in time:\n${out}`)), 15_000);
    const onData = (chunk: Buffer) => {
      if (out.length < 64_000) out += chunk.toString();
      const m = /listening on (127\.0\.0\.1:[0-9]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`docker-registry exited with ${code}:\n${out}`));
    });
  });
  // Its log must not fill the pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    address,
    dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await done;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
