// Several `berth serve` instances on one PostgreSQL database and one S3 bucket
// prefix, behind haproxy (deploy/haproxy.cfg), as docs/deploy.md deploys them:
// every instance has the balancer's URLs as its public URLs, so a token or an
// upload Location from any of them is good on all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Berth, dropDatabase, freshDatabase, startBerth } from './berth-process.js';
import { type Balancer, freePort, startBalancer } from './haproxy.js';
import { emptyPrefix, freshPrefix, type TestBucket } from './s3-test-bucket.js';

export interface BerthCluster {
  instances: Berth[];
  balancer: Balancer;
  /** The balancer as a Berth for the harness's clients: its URLs, the first start's owner credentials. */
  front: Berth;
  databaseUrl: string;
  /** The flags that put a process (an instance, `berth registry gc`) on the shared bucket prefix. */
  blobStoreFlags: string[];
  stop(): Promise<void>;
}

/** Starts `n` instances together on a fresh database, then the balancer in front of them. */
export async function startCluster(bucket: TestBucket, n: number, extraArgs: string[] = []): Promise<BerthCluster> {
  const databaseUrl = await freshDatabase();
  if (!databaseUrl) throw new Error('a cluster needs PostgreSQL (BERTH_TEST_PG)');
  const prefix = freshPrefix();
  const blobStoreFlags = ['--blob-store', `s3://${bucket.bucket}/${prefix}`, '--s3-endpoint', bucket.endpoint, '--s3-path-style'];
  const [apiPort, registryPort] = [await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${apiPort}`;
  const registryPublicUrl = `http://127.0.0.1:${registryPort}`;
  const dirs = Array.from({ length: n }, (_, i) => mkdtempSync(join(tmpdir(), `berth-node${i + 1}-`)));
  const start = (dataDir: string) =>
    startBerth({ databaseUrl, dataDir, publicUrl, env: bucket.env, extraArgs: ['--registry-public-url', registryPublicUrl, ...blobStoreFlags, ...extraArgs] });
  // One after another: the first migrates the database and creates the organization (a start
  // costs a second or two, and starts in parallel only compete for the CPU).
  const started: PromiseSettledResult<Berth>[] = [];
  for (const dir of dirs) {
    started.push(...(await Promise.allSettled([start(dir)])));
    if (started.at(-1)!.status === 'rejected') break;
  }
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  // An instance a test killed has exited: stop() would wait for an exit already past.
  const live = () => instances.filter((i) => i.process.exitCode === null && i.process.signalCode === null);
  const cleanup = async () => {
    await Promise.all(live().map((i) => i.stop('SIGKILL')));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await dropDatabase(databaseUrl);
    await emptyPrefix(bucket, `${prefix}/`);
  };
  if (instances.length < n || !instances[0].orgUid) {
    await cleanup();
    throw new Error(`an instance failed to start: ${started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok')).join(' | ')}`);
  }
  let balancer: Balancer;
  try {
    balancer = await startBalancer(
      apiPort,
      registryPort,
      instances.map((i) => ({ api: new URL(i.url).host, registry: new URL(i.registryUrl!).host })),
    );
  } catch (err) {
    await cleanup();
    throw err;
  }
  // The first created the organization and wrote the owner's credentials.
  const front: Berth = { ...instances[0], url: balancer.apiUrl, registryUrl: balancer.registryUrl, registryPublicUrl: balancer.registryUrl };
  return {
    instances,
    balancer,
    front,
    databaseUrl,
    blobStoreFlags,
    async stop() {
      await balancer.stop();
      await Promise.all(live().map((i) => i.stop()));
      await cleanup();
    },
  };
}
