// STS and authorization benchmark.
//  - Token exchanges per second: an external OIDC issuer on loopback signs ID
//    tokens for a claimMatch identity; POST /sts/exchange at C connections
//    (the issuer's JWKS is cached after the warm-up). Baseline, in the same
//    run and on the same core: a bare jose loop doing what an exchange must
//    at least do — verify one RS256 token (the external issuer's, as GitHub's
//    and GitLab's are) against a local JWKS and sign one token with Berth's
//    own algorithm (ES256 since keys moved off RSA; C in flight). And the
//    floor of an exchange: a bare Fastify route that verifies the same way,
//    seals a refresh token and signs (bench/sts-floor-server.ts).
//  - Permission checks: groups 8 levels deep and 10,000 role bindings, seeded
//    through the store like bench/api.ts. The caller holds its role on the
//    7th level and a binding on every other group it can have one on (its
//    outermost grants are ~870 groups a check scans); GET the deepest group.
//    The same GET as the first-start owner (one binding) for comparison, then
//    the check in process: cached (the per-request table-version read plus
//    Grants.has), cold (the bindings query and Grants.of) and Grants.has alone.
// Servers pinned to core 0, load on core 1 (bench/api.ts's layout); medians
// of R runs; server CPU per request from /proc. The load generator polls
// (bench/load.ts); the exchange and the floor are measured again with a load
// generator that sleeps between responses, whose wake-ups the server's core
// pays for, and both figures are printed.
// Usage: npm run bench:sts [-- --seconds S --warmup-seconds W --connections C --runs R --database postgres://… (a fresh database) --profile DIR]
import { spawnSync, type ChildProcess } from 'node:child_process';
import { ALGORITHM } from '../src/auth/signing-keys.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { nowIso } from '../src/core/clock.js';
import { newChildUid } from '../src/core/uidp.js';
import { Capability } from '../src/gen/berth/capabilities/v1/capabilities_pb.js';
import { IamAccessDirectory } from '../src/iam/access/iam-access-directory.js';
import { builtinRoleByName } from '../src/iam/roles/builtin-roles.js';
import { openStore } from '../src/store/store.js';
import { cpuTimeUs, freePort, median, medianResult, PIN, pinLoadToCore1, startNode, stopProcess } from './bench-process.js';
import { formatSummary, mainProfile } from './profile-summary.js';
import { formatResult, runLoad, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    /** Load before each measurement (the server's JIT settles; with 1 s the first figure of a fresh server ran low). */
    'warmup-seconds': { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    database: { type: 'string' },
    /** Profile the server (node --cpu-prof) during one exchange measurement, print its summary, and stop. */
    profile: { type: 'string' },
    /** Internal: run the bare jose loop for this many seconds and print its rate. */
    baseline: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = Number(values['warmup-seconds']);
if (!Number.isFinite(WARMUP_SECONDS) || WARMUP_SECONDS < 0) throw new Error('--warmup-seconds must be a number of seconds, 0 or more');
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const DEPTH = 8;
const BINDINGS = 10_000;
const SIBLINGS = 124; // per level: 8 × (1 + 124) = 1,000 groups
const OTHER_IDENTITIES = 900;
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const FLOOR = join(import.meta.dirname, 'sts-floor-server.js');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Signs a JWT: RS256 for the external issuer's ID tokens, Berth's algorithm for the baseline's stand-in for Berth's token. */
function sign(key: CryptoKey, kid: string, iss: string, sub: string, aud: string, claims: Record<string, unknown> = {}, alg = 'RS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, kid }).setIssuer(iss).setSubject(sub).setAudience(aud).setIssuedAt().setExpirationTime('10m').sign(key);
}

// ---- the bare jose loop (a child process on the server's core) ----

async function baselineLoop(seconds: number): Promise<void> {
  const ext = await generateKeyPair('RS256', { modulusLength: 2048 });
  const own = await generateKeyPair(ALGORITHM);
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(ext.publicKey)), kid: 'ext', alg: 'RS256' }] });
  const iss = 'http://127.0.0.1:1';
  const token = await sign(ext.privateKey, 'ext', iss, 'bench', 'http://berth');
  const one = async () => {
    const { payload } = await jwtVerify(token, jwks, { issuer: iss, audience: 'http://berth', algorithms: ['RS256'], requiredClaims: ['exp'] });
    await sign(own.privateKey, 'own', 'http://berth', String(payload.sub), 'http://berth', { berth_caps: [] }, ALGORITHM);
  };
  const loop = async (until: number) => {
    let n = 0;
    while (performance.now() < until) {
      await one();
      n++;
    }
    return n;
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(performance.now() + WARMUP_SECONDS * 1000)));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const counts = await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(t0 + seconds * 1000)));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const n = counts.reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ rps: n / elapsed, cpuUs: (cpu.user + cpu.system) / n }));
}

// ---- processes ----

async function measure(url: string, next: (i: number) => RequestSpec, server: ChildProcess, opts: LoadOptions = {}): Promise<LoadResult> {
  await runLoad(url, next, CONNECTIONS, WARMUP_SECONDS, opts);
  const before = cpuTimeUs(server.pid);
  const r = await runLoad(url, next, CONNECTIONS, SECONDS, opts);
  const after = cpuTimeUs(server.pid);
  if (before !== undefined && after !== undefined) r.cpuUs = (after - before) / r.requests;
  if (r.errors > 0) throw new Error(`${r.errors} of ${r.requests} requests failed`);
  return r;
}

// ---- the external issuer (in this process, on the load core) ----

async function issuer(): Promise<{ url: string; key: CryptoKey; jwks: { keys: JWK[] }; close(): Promise<void> }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'ext', alg: 'RS256', use: 'sig' };
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key: privateKey,
    jwks: { keys: [jwk] },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---- seeding ----

interface Hierarchy {
  /** The chain, level 1 … DEPTH. */
  chain: string[];
  callerBindings: number;
}

async function seed(dataDir: string, org: string, caller: string): Promise<Hierarchy> {
  const t0 = performance.now();
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const now = nowIso();
  const viewer = builtinRoleByName('viewer')!.uid;
  const chain: string[] = [];
  const groups: string[] = [];
  const siblings: string[] = [];
  const bindings: Array<{ parent: string; identity: string }> = [];
  await store.db.transaction().execute(async (trx) => {
    let parent = org;
    for (let d = 1; d <= DEPTH; d++) {
      const rows = [];
      const next = newChildUid(parent);
      rows.push({ uid: next, parent_uid: parent, name: `level-${d}`, description: '', verified: 0, create_time: now, update_time: now });
      for (let s = 0; s < SIBLINGS; s++) {
        const uid = newChildUid(parent);
        rows.push({ uid, parent_uid: parent, name: `level-${d}-${s}`, description: '', verified: 0, create_time: now, update_time: now });
        siblings.push(uid);
      }
      await trx.insertInto('groups').values(rows).execute();
      chain.push(next);
      groups.push(...rows.map((r) => r.uid));
      parent = next;
    }
    // The caller: its role on level 7 (so level 8 is checked through an
    // ancestor), and a binding on every sibling group not below it.
    bindings.push({ parent: chain[DEPTH - 2], identity: caller });
    for (const s of siblings) if (!s.startsWith(`${chain[DEPTH - 2]}/`)) bindings.push({ parent: s, identity: caller });
    const callerBindings = bindings.length;
    const identities = [];
    for (let i = 0; i < OTHER_IDENTITIES; i++) {
      identities.push({
        uid: newChildUid(org),
        parent_uid: org,
        name: `seeded-${i}`,
        description: '',
        company: '',
        email: '',
        relationship_type: 'static',
        relationship: '{}',
        issuer: 'https://seeded.example',
        subject: `seeded-${i}`,
        last_seen_time: now,
        create_time: now,
        update_time: now,
      });
    }
    for (let i = 0; i < identities.length; i += 200)
      await trx
        .insertInto('identities')
        .values(identities.slice(i, i + 200))
        .execute();
    for (let i = 0; bindings.length < BINDINGS; i++)
      bindings.push({ parent: groups[(i * 7919) % groups.length], identity: identities[i % identities.length].uid });
    const rows = bindings.map((b) => ({
      uid: newChildUid(b.parent),
      parent_uid: b.parent,
      identity_uid: b.identity,
      role_uid: viewer,
      mapping_uid: null,
      create_time: now,
      update_time: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('role_bindings')
        .values(rows.slice(i, i + 500))
        .execute();
    console.log(
      `seeded ${groups.length} groups ${DEPTH} levels deep, ${OTHER_IDENTITIES} identities and ${rows.length} role bindings (${callerBindings} the caller's) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  });
  await store.close();
  return { chain, callerBindings: bindings.filter((b) => b.identity === caller).length };
}

// ---- the check in process ----

async function timeEach(n: number, f: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  const ts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ts.push((performance.now() - t0) * 1000);
  }
  ts.sort((a, b) => a - b);
  return { p50: percentile(ts, 50), p99: percentile(ts, 99) };
}

/** Prints the check's cost in process; returns the cached check's p99 in µs. */
async function inProcess(dataDir: string, caller: string, deepest: string): Promise<number> {
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const cap = Capability.CAP_IAM_GROUPS_LIST;
  const check = async (dir: IamAccessDirectory) => {
    const g = await (await dir.load(caller)).grants();
    if (!g.has(cap, deepest)) throw new Error('the caller should hold groups.list at the deepest group');
  };
  const warm = new IamAccessDirectory(store);
  await check(warm);
  const cached = await timeEach(5000, () => check(warm));
  const cold = await timeEach(300, () => check(new IamAccessDirectory(store)));
  const grants = await (await warm.load(caller)).grants();
  const hasOnly: number[] = [];
  for (let b = 0; b < 200; b++) {
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) grants.has(cap, deepest);
    hasOnly.push(((performance.now() - t0) * 1000) / 100);
  }
  hasOnly.sort((a, b) => a - b);
  const us = (x: number) => `${x.toFixed(1)} µs`;
  console.log(`\nthe check in process (load core, ${grants.scopes(cap).length} outermost groups for groups.list):`);
  console.log(`  cached grants (table-version read + has): p50 ${us(cached.p50)}   p99 ${us(cached.p99)}`);
  console.log(`  cold grants (bindings query + Grants.of + has): p50 ${us(cold.p50)}   p99 ${us(cold.p99)}`);
  console.log(`  Grants.has alone (batches of 100): p50 ${us(percentile(hasOnly, 50))}   p99 ${us(percentile(hasOnly, 99))}`);
  await store.close();
  return cached.p99;
}

// ---- main ----

async function main(): Promise<void> {
  pinLoadToCore1();
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-sts-'));
  const port = await freePort();
  const serveArgs = [CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--registry-listen', 'off', '--data', dataDir, '--log-level', 'warn'];
  // The external issuer is plain http on loopback.
  serveArgs.push('--allow-insecure-issuers');
  if (values.database) serveArgs.push('--database', values.database);
  const startBerth = async (nodeArgs: string[] = []) => {
    const s = await startNode([...nodeArgs, ...serveArgs], /berth is serving at (http\S+)/);
    return { child: s.child, url: s.match[1] };
  };
  const idp = await issuer();

  // First start: the organization, an owner token and the claimMatch identity.
  let berth = await startBerth();
  const ownerToken = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', berth.url], {
    encoding: 'utf8',
  }).stdout.trim();
  const org = (JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } }).organization.uid;
  const made = await fetch(`${berth.url}/iam/v2/identities/${org}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-ci', claimMatch: { issuer: idp.url, subject: 'repo:bench/app:ref:refs/heads/main' } }),
  });
  if (made.status !== 200) throw new Error(`identity create: ${await made.text()}`);
  const caller = ((await made.json()) as { uid: string }).uid;
  await stopProcess(berth.child);
  const { chain, callerBindings } = await seed(dataDir, org, caller);
  const deepest = chain[DEPTH - 1];

  // A pool of distinct ID tokens, signed before the runs (on the load core).
  const pool = await Promise.all(
    Array.from({ length: 256 }, (_, i) => sign(idp.key, 'ext', idp.url, 'repo:bench/app:ref:refs/heads/main', berth.url, { jti: `bench-${i}` })),
  );
  const exchangeSpec = (i: number): RequestSpec => ({
    method: 'POST',
    path: `/sts/exchange?identity=${encodeURIComponent(caller)}`,
    headers: { authorization: `Bearer ${pool[i % pool.length]}` },
    expect: 200,
  });

  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each (after ${WARMUP_SECONDS} s warm-up), ${values.database ? 'PostgreSQL' : 'SQLite'}, ${PIN ? 'servers on core 0, load on core 1' : 'not pinned'}\n`,
  );
  if (values.profile) {
    const dir = join(values.profile, 'sts-exchange');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    berth = await startBerth(['--cpu-prof', '--cpu-prof-dir', dir]);
    const r = await measure(berth.url, exchangeSpec, berth.child);
    await stopProcess(berth.child);
    await idp.close();
    console.log(formatResult('POST /sts/exchange (claimMatch)', r));
    console.log(formatSummary('profile of POST /sts/exchange', mainProfile(dir)));
    rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  const sleeping = { clientSleeps: true };
  const runs: Array<{
    exchange: LoadResult;
    exchangeSleeping: LoadResult;
    floor: LoadResult;
    floorSleeping: LoadResult;
    check: LoadResult;
    ownerCheck: LoadResult;
    bare: { rps: number; cpuUs: number };
  }> = [];
  for (let run = 0; run < RUNS; run++) {
    berth = await startBerth();
    const exchange = await measure(berth.url, exchangeSpec, berth.child);
    const exchangeSleeping = await measure(berth.url, exchangeSpec, berth.child, sleeping);
    const got = (await (
      await fetch(`${berth.url}/sts/exchange?identity=${encodeURIComponent(caller)}`, { method: 'POST', headers: { authorization: `Bearer ${pool[0]}` } })
    ).json()) as { token: string };
    const getDeepest = (token: string) => (): RequestSpec => ({
      method: 'GET',
      path: `/iam/v2/groups/${deepest}`,
      headers: { authorization: `Bearer ${token}` },
      expect: 200,
    });
    const check = await measure(berth.url, getDeepest(got.token), berth.child);
    const ownerCheck = await measure(berth.url, getDeepest(ownerToken), berth.child);
    await stopProcess(berth.child);
    const b = await startNode(
      [join(import.meta.dirname, 'sts.js'), '--baseline', String(SECONDS), '--connections', String(CONNECTIONS), '--warmup-seconds', String(WARMUP_SECONDS)],
      /^\{.*\}$/m,
    );
    await new Promise((r) => (b.child.exitCode === null ? b.child.once('exit', r) : r(undefined)));
    const bare = JSON.parse(b.match[0]) as { rps: number; cpuUs: number };
    const f = await startNode([FLOOR, JSON.stringify(idp.jwks), idp.url], /floor at (http\S+)/);
    const floor = await measure(f.match[1], exchangeSpec, f.child);
    const floorSleeping = await measure(f.match[1], exchangeSpec, f.child, sleeping);
    await stopProcess(f.child);
    runs.push({ exchange, exchangeSleeping, floor, floorSleeping, check, ownerCheck, bare });
    console.log(
      `run ${run + 1}: exchange ${exchange.rps.toFixed(0)}/s, client sleeping ${exchangeSleeping.rps.toFixed(0)}/s (bare jose ${bare.rps.toFixed(0)}/s, bare exchange route ${floor.rps.toFixed(0)}/s, client sleeping ${floorSleeping.rps.toFixed(0)}/s), GET deepest group ${check.rps.toFixed(0)}/s (owner, 1 binding: ${ownerCheck.rps.toFixed(0)}/s)`,
    );
  }
  await idp.close();

  const ex = medianResult(runs.map((r) => r.exchange));
  const exSleeping = medianResult(runs.map((r) => r.exchangeSleeping));
  const fl = medianResult(runs.map((r) => r.floor));
  const flSleeping = medianResult(runs.map((r) => r.floorSleeping));
  const ratioSleeping = median(runs.map((r) => r.exchangeSleeping.rps / r.bare.rps));
  const floorRatioSleeping = median(runs.map((r) => r.floorSleeping.rps / r.bare.rps));
  const floorRatio = median(runs.map((r) => r.floor.rps / r.bare.rps));
  const ofFloor = median(runs.map((r) => r.exchange.rps / r.floor.rps));
  const ck = medianResult(runs.map((r) => r.check));
  const ok = medianResult(runs.map((r) => r.ownerCheck));
  const bareRps = median(runs.map((r) => r.bare.rps));
  const bareCpu = median(runs.map((r) => r.bare.cpuUs));
  const ratio = median(runs.map((r) => r.exchange.rps / r.bare.rps));
  const cpuRatio = runs.every((r) => r.exchange.cpuUs) ? median(runs.map((r) => r.bare.cpuUs / r.exchange.cpuUs!)) : Number.NaN;
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  console.log(`\nmedians of ${RUNS} runs`);
  console.log(
    `${'baseline: bare jose verify+sign'.padEnd(34)} ${bareRps.toFixed(0).padStart(8)} ops/s${''.padEnd(40)}cpu ${bareCpu.toFixed(0).padStart(5)} µs/op`,
  );
  console.log(`${formatResult('POST /sts/exchange (claimMatch)', ex)}   ${pct(ratio)} of baseline (by CPU ${pct(cpuRatio)})`);
  console.log(`${formatResult('floor: bare exchange route', fl)}   ${pct(floorRatio)} of baseline; Berth does ${pct(ofFloor)} of its rate`);
  console.log(`${formatResult('  exchange, client sleeping', exSleeping)}   ${pct(ratioSleeping)} of baseline`);
  console.log(`${formatResult('  floor, client sleeping', flSleeping)}   ${pct(floorRatioSleeping)} of baseline`);
  console.log(`${formatResult(`GET group level ${DEPTH} (${callerBindings} bindings)`, ck)}`);
  console.log(`${formatResult(`GET group level ${DEPTH} (owner, 1)`, ok)}`);
  const checkP99 = await inProcess(dataDir, caller, deepest);
  const aim = (met: boolean) => (met ? 'met' : 'NOT met');
  console.log('\naims:');
  console.log(`  ≥ 3,000 exchanges/s on one core: ${ex.rps.toFixed(0)}/s (${aim(ex.rps >= 3000)})`);
  console.log(`  exchange ≥ 50 % of the bare jose loop: ${pct(ratio)}, by CPU ${pct(cpuRatio)} (${aim(ratio >= 0.5)})`);
  console.log(
    `    (with a load generator that sleeps between responses, whose wake-ups the server's core pays: ${pct(ratioSleeping)}; the floor ${pct(floorRatioSleeping)})`,
  );
  console.log(
    `    (a bare Fastify route doing only jose's verify, the refresh token's seal and the signature: ${pct(floorRatio)} of the loop; Berth: ${pct(ofFloor)} of that route)`,
  );
  console.log(`  permission check p99 ≤ 1 ms (in process, cached grants): ${(checkP99 / 1000).toFixed(3)} ms (${aim(checkP99 <= 1000)})`);
  console.log(
    `  (end to end, GET at level ${DEPTH} under ${CONNECTIONS} connections: p50 ${ck.p50.toFixed(2)} ms, p99 ${ck.p99.toFixed(2)} ms, mostly queueing)`,
  );
  rmSync(dataDir, { recursive: true, force: true });
}

if (values.baseline !== undefined) await baselineLoop(Number(values.baseline));
else await main();
