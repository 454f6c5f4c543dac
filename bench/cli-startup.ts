// CLI start-up benchmark: how long `berth` takes before a command's own work.
// Per command, the wall time of the process and its CPU time (user + system,
// printed at exit by a preloaded one-liner), medians of R runs, beside the
// floor measured in the same run: `node -e 0` under the same preload, a
// Node.js process that loads nothing. Commands: berth --help; berth images
// repos --help; berth images repos list against a running server (with the
// first-start credentials); berth serve until its "berth is serving" line (an
// existing SQLite data directory, registry off; its CPU time from /proc).
// Each berth command runs with Node's compile cache (the CLI's default; warmed
// by one run first) and without it (NODE_DISABLE_COMPILE_CACHE=1, Node's own
// switch); with --baseline DIR also from another built checkout of Berth (the
// commit before a change), the variants alternated run by run.
// Usage: npm run bench:cli [-- --runs 15 --baseline /path/to/other/checkout]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuTimeUs, freePort, median, spawnPinned, stopProcess, waitFor } from './bench-process.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    baseline: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a whole number, 1 or more');

const ROOT = join(import.meta.dirname, '..', '..');
const cliOf = (root: string) => join(root, 'dist', 'src', 'cli', 'main.js');
const REPORT_CPU = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})`;

interface Variant {
  name: string;
  cli?: string;
  env: NodeJS.ProcessEnv;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

const configDir = mkdtempSync(join(tmpdir(), 'berth-bench-cli-'));
const baseEnv: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
delete baseEnv.BERTH_API;
delete baseEnv.BERTH_CREDENTIALS;
delete baseEnv.NODE_DISABLE_COMPILE_CACHE;
const noCache = { ...baseEnv, NODE_DISABLE_COMPILE_CACHE: '1' };

const variants: Variant[] = [
  ...(values.baseline ? [{ name: 'baseline', cli: cliOf(values.baseline), env: noCache }] : []),
  { name: 'no cache', cli: cliOf(ROOT), env: noCache },
  { name: 'cache', cli: cliOf(ROOT), env: baseEnv },
];

/** One process: `node [preload] args`, its wall and CPU time. */
function runOnce(args: string[], env: NodeJS.ProcessEnv): Sample {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', REPORT_CPU, ...args], { env, encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  const cpu = /cpu-us (\d+)/.exec(r.stderr);
  if (!cpu) throw new Error(`node ${args.join(' ')} printed no CPU time:\n${r.stderr}`);
  return { wallMs, cpuMs: Number(cpu[1]) / 1000 };
}

/** `berth serve` on a fresh port until it serves: wall time to its banner, CPU time then. */
async function serveOnce(cli: string, env: NodeJS.ProcessEnv, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnPinned(
    process.execPath,
    [cli, 'serve', '--listen', `127.0.0.1:${port}`, '--registry-listen', 'off', '--data', dataDir, '--log-level', 'warn'],
    env,
  );
  await waitFor(child, /berth is serving at/);
  const wallMs = performance.now() - t0;
  const cpuUs = cpuTimeUs(child.pid);
  await stopProcess(child);
  if (cpuUs === undefined) throw new Error('no CPU time for berth serve (no /proc?)');
  return { wallMs, cpuMs: cpuUs / 1000 };
}

function summary(xs: Sample[]): Sample {
  return { wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)) };
}

const fmt = (s: Sample) => `${s.wallMs.toFixed(0).padStart(5)} ms wall ${s.cpuMs.toFixed(0).padStart(5)} ms CPU`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-cli-data-'));
  // A server for the API command (and, by its first start, an initialised data directory for serve).
  const apiPort = await freePort();
  const server = spawnPinned(
    process.execPath,
    [cliOf(ROOT), 'serve', '--listen', `127.0.0.1:${apiPort}`, '--registry-listen', 'off', '--data', dataDir],
    baseEnv,
  );
  const serving = await waitFor(server, /berth is serving at (\S+)/);
  const credentials = join(dataDir, 'admin-credentials.json');
  const commands: { name: string; args: string[] }[] = [
    { name: 'berth --help', args: ['--help'] },
    { name: 'berth images repos --help', args: ['images', 'repos', '--help'] },
    { name: 'berth images repos list', args: ['images', 'repos', 'list', '--credentials', credentials, '--api', serving[1]] },
  ];
  const serveData = mkdtempSync(join(tmpdir(), 'berth-bench-cli-serve-'));
  try {
    // First start of the serve data directory, and one warming run of each variant (fills the compile cache).
    await serveOnce(cliOf(ROOT), baseEnv, serveData);
    for (const v of variants) {
      for (const c of commands) runOnce([v.cli!, ...c.args], v.env);
      await serveOnce(v.cli!, v.env, serveData);
    }
    const floor: Sample[] = [];
    const samples = new Map<string, Sample[]>();
    const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
    for (let r = 0; r < RUNS; r++) {
      // Floor and variants alternate within each run, so load from other processes falls on all alike.
      floor.push(runOnce(['-e', '0'], noCache));
      for (const c of commands) for (const v of variants) add(`${c.name}|${v.name}`, runOnce([v.cli!, ...c.args], v.env));
      for (const v of variants) add(`berth serve|${v.name}`, await serveOnce(v.cli!, v.env, serveData));
    }
    const f = summary(floor);
    console.log(`${cpus().length} cores, load ${loadavg()[0].toFixed(2)} (shared machine: figures vary) · ${RUNS} runs per figure, median`);
    console.log(`floor  node -e 0: ${fmt(f)}`);
    for (const name of [...commands.map((c) => c.name), 'berth serve']) {
      console.log(name);
      const base = values.baseline ? summary(samples.get(`${name}|baseline`)!) : undefined;
      for (const v of variants) {
        const s = summary(samples.get(`${name}|${v.name}`)!);
        const vsBase =
          base && v.name !== 'baseline' ? ` · ${(s.wallMs / base.wallMs).toFixed(2)}× baseline wall, ${(s.cpuMs / base.cpuMs).toFixed(2)}× CPU` : '';
        console.log(`  ${v.name.padEnd(9)} ${fmt(s)} · ${(s.wallMs / f.wallMs).toFixed(1)}× floor wall${vsBase}`);
      }
    }
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(serveData, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  }
}

await main();
