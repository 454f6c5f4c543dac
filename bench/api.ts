// API benchmark: seeds 100,000 repos across nested groups, then measures GET
// one repo, list 50 (page 1 and page 1,000 via tokens, order_by=name) and
// create, against a bare HTTP route served by a separate process in the same run.
// Usage: npm run bench:api [-- --repos N --seconds S --connections C]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nowIso } from '../src/core/clock.js';
import { newChildUid } from '../src/core/uidp.js';
import { openStore } from '../src/store/store.js';
import { formatResult, runLoad } from './load.js';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    database: { type: 'string' },
  },
});
const REPOS = Number(values.repos);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js'); // dist/bench → dist/src

function startProcess(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const BARE = `require('node:http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json'});s.end('{"uid":"x","name":"bare"}')}).listen(0,'127.0.0.1',function(){console.log('bare at http://127.0.0.1:'+this.address().port)})`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  const serveArgs = [CLI, 'serve', '--listen', '127.0.0.1:0', '--data', dataDir, '--log-level', 'warn'];
  if (values.database) serveArgs.push('--database', values.database);
  const serving = /berth is serving at (http\S+)/;

  // First start creates the organization, then the server stops and we seed.
  let { child } = await startProcess(serveArgs, serving);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const creds = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } };
  const org = creds.organization.uid;

  const t0 = performance.now();
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const groups: string[] = [org];
  const now = nowIso();
  await store.db.transaction().execute(async (trx) => {
    // 10 teams × 10 projects: repos spread over 111 groups at three depths.
    for (let t = 0; t < 10; t++) {
      const team = newChildUid(org);
      await trx.insertInto('groups').values({ uid: team, parent_uid: org, name: `team-${t}`, description: '', verified: 0, create_time: now, update_time: now }).execute();
      groups.push(team);
      for (let p = 0; p < 10; p++) {
        const proj = newChildUid(team);
        await trx.insertInto('groups').values({ uid: proj, parent_uid: team, name: `project-${p}`, description: '', verified: 0, create_time: now, update_time: now }).execute();
        groups.push(proj);
      }
    }
    const batch = 500;
    for (let i = 0; i < REPOS; i += batch) {
      const rows = [];
      for (let k = i; k < Math.min(REPOS, i + batch); k++) {
        const parent = groups[k % groups.length];
        rows.push({ uid: newChildUid(parent), parent_uid: parent, name: `repo-${String(k).padStart(6, '0')}`, description: 'seeded', readme: '', create_time: now, update_time: now });
      }
      await trx.insertInto('repos').values(rows).execute();
    }
  });
  await store.close();
  console.log(`seeded ${REPOS} repos in ${groups.length} groups in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const server = await startProcess(serveArgs, serving);
  child = server.child;
  const berthUrl = server.match[1];
  const bare = await startProcess(['-e', BARE], /bare at (http\S+)/);
  const bareUrl = bare.match[1];

  const tokenProc = spawn(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', berthUrl]);
  let token = '';
  tokenProc.stdout.on('data', (c: Buffer) => (token += c.toString()));
  await new Promise((r) => tokenProc.once('exit', r));
  token = token.trim();
  const auth = { authorization: `Bearer ${token}` };

  const list = async (path: string) => {
    const res = await fetch(`${berthUrl}${path}`, { headers: auth });
    return (await res.json()) as { repos: Array<{ uid: string }>; nextPageToken: string };
  };
  const first = await list('/registry/v2/repos?page_size=50&order_by=name');
  const someRepo = first.repos[0].uid;
  let pageToken = first.nextPageToken;
  for (let i = 2; i < 1000; i++) pageToken = (await list(`/registry/v2/repos?page_size=50&order_by=name&page_token=${encodeURIComponent(pageToken)}`)).nextPageToken;
  const page1000 = `/registry/v2/repos?page_size=50&order_by=name&page_token=${encodeURIComponent(pageToken)}`;

  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, ${REPOS} repos\n`);
  const bareR = await runLoad(bareUrl, () => ({ method: 'GET', path: '/bare' }), CONNECTIONS, SECONDS);
  console.log(formatResult('baseline: bare HTTP route', bareR));
  const get = await runLoad(berthUrl, () => ({ method: 'GET', path: `/registry/v2/repos/${someRepo}`, headers: auth }), CONNECTIONS, SECONDS);
  console.log(formatResult('GET one repo', get));
  const l1 = await runLoad(berthUrl, () => ({ method: 'GET', path: '/registry/v2/repos?page_size=50&order_by=name', headers: auth }), CONNECTIONS, SECONDS);
  console.log(formatResult('list 50, page 1 (order_by=name)', l1));
  const l1000 = await runLoad(berthUrl, () => ({ method: 'GET', path: page1000, headers: auth }), CONNECTIONS, SECONDS);
  console.log(formatResult('list 50, page 1,000 (token)', l1000));
  const create = await runLoad(
    berthUrl,
    (i) => ({ method: 'POST', path: `/registry/v2/repos/${org}`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `bench-${process.pid}-${i}` }) }),
    CONNECTIONS,
    SECONDS,
  );
  console.log(formatResult('create repo', create));
  console.log(`\nGET one repo at ${((get.rps / bareR.rps) * 100).toFixed(1)}% of the bare route's req/s (aim ≥ 25%)`);
  console.log(`list p99 ${l1.p99.toFixed(1)} ms (page 1) and ${l1000.p99.toFixed(1)} ms (page 1,000) (aim ≤ 25 ms)`);
  console.log(`page 1,000 / page 1 p50: ${(l1000.p50 / l1.p50).toFixed(2)}× (aim ≤ 1.5×)`);

  bare.child.kill();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
