// Debian's haproxy in front of several Berth instances, run from the example
// configuration operators copy (deploy/haproxy.cfg): only its addresses are
// replaced, so the tested balancer and the documented one cannot drift. Its
// log (one `option httplog` line per request, on stdout with -db) says which
// instance answered each request.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const HAPROXY_TEMPLATE = join(ROOT, 'deploy', 'haproxy.cfg');

/** Why tests that need haproxy are skipped here, or false when it is installed (.ci/run installs it). */
export const haproxyMissing: string | false =
  spawnSync('haproxy', ['-v']).status === 0 ? false : 'haproxy is not installed (apt-get install haproxy); .ci/run installs it';

/** An instance as the balancer sees it: host:port of its API and of its registry listener. */
export interface Backend {
  api: string;
  registry: string;
}

/** One request as haproxy logged it. */
export interface LoggedRequest {
  backend: string;
  server: string;
  status: number;
  method: string;
  path: string;
}

export interface Balancer {
  apiUrl: string;
  registryUrl: string;
  requests(): LoggedRequest[];
  stop(): Promise<void>;
}

/** A port free now on loopback (the balancer binds it a moment later; the instances must know it first, for their public URLs). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** deploy/haproxy.cfg with its example addresses replaced; throws when the template no longer has what it replaces. */
export function balancerConfig(apiPort: number, registryPort: number, backends: readonly Backend[]): string {
  let text = readFileSync(HAPROXY_TEMPLATE, 'utf8');
  const replace = (from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`${HAPROXY_TEMPLATE} no longer has "${from}"`);
    text = text.replaceAll(from, to);
  };
  replace('bind :8080', `bind 127.0.0.1:${apiPort}`);
  replace('bind :5000', `bind 127.0.0.1:${registryPort}`);
  backends.forEach((b, i) => {
    replace(`10.0.0.1${i + 1}:8080`, b.api);
    replace(`10.0.0.1${i + 1}:5000`, b.registry);
  });
  if (/10\.0\.0\.\d+:\d+/.test(text)) throw new Error(`${HAPROXY_TEMPLATE} lists more servers than the ${backends.length} instances`);
  return text;
}

// option httplog: … frontend backend/server Tq/Tw/Tc/Tr/Ta status bytes … "METHOD PATH HTTP/x"
const LOG_LINE = /\s(\S+)\/(\S+) -?\d+\/-?\d+\/-?\d+\/-?\d+\/\+?-?\d+ (-?\d+) .*"(\S+) (\S+) HTTP\/[\d.]+"/;

/** Starts haproxy in the foreground (-db) on the two ports; resolves once both frontends answer /readyz through an instance. */
export async function startBalancer(apiPort: number, registryPort: number, backends: readonly Backend[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, balancerConfig(apiPort, registryPort, backends));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errors = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    errors = (errors + c.toString()).slice(-16_384);
  });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const registryUrl = `http://127.0.0.1:${registryPort}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${errors}`);
    const ready = await Promise.all(
      [apiUrl, registryUrl].map((u) =>
        fetch(`${u}/readyz`)
          .then((r) => r.status === 200)
          .catch(() => false),
      ),
    );
    if (ready.every(Boolean)) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`haproxy did not serve in time:\n${errors}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    apiUrl,
    registryUrl,
    requests: () =>
      out.split('\n').flatMap((line) => {
        const m = LOG_LINE.exec(line);
        return m ? [{ backend: m[1], server: m[2], status: Number(m[3]), method: m[4], path: m[5] }] : [];
      }),
    stop,
  };
}
