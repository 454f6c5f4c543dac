// Three `berth serve` instances on one PostgreSQL database and one Ceph RGW
// bucket, behind Debian's haproxy running deploy/haproxy.cfg (round-robin, no
// stickiness), as docs/deploy.md deploys them. Through the balancer: skopeo
// pushes and pulls a multi-arch image, and the chunks of one upload land on
// different instances (haproxy's log says which); the OCI conformance suite
// passes; a write on one instance is read on the others at once; a token
// minted by one is accepted by all; events are delivered once; gc runs beside
// the serving instances; an instance killed (-9) in the middle of a push costs
// the client one retry, and nothing is corrupt. One cluster for the file.
// PostgreSQL only (instances share one database): it skips in the SQLite suite.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { grpcClient, ownerToken, rest } from '../harness/api-client.js';
import { type Berth, usingPostgres } from '../harness/berth-process.js';
import { type BerthCluster, startCluster } from '../harness/berth-cluster.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { haproxyMissing } from '../harness/haproxy.js';
import { writeImage, writeMultiArchImage, type WrittenImage } from '../harness/oci-layout.js';
import { basic, cliToken, registryHost, tokenGet } from '../harness/registry-client.js';
import { gc, RepoClient } from '../harness/registry-gc.js';
import { type TestBucket, testBucket } from '../harness/s3-test-bucket.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { runConformanceLazily } from '../oci/conformance/index.js';

const MiB = 1 << 20;
const bucket = usingPostgres() ? await testBucket() : undefined;
const skip = !usingPostgres()
  ? 'PostgreSQL only: several instances share one database (it runs in the PostgreSQL suite, BERTH_TEST_PG)'
  : typeof bucket === 'string'
    ? bucket
    : (!process.env.CI && haproxyMissing) || skopeoMissing; // CI installs haproxy: there a missing one fails the test
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));
const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const UPLOAD_PATH = /\/blobs\/uploads\/([^/?]+)/;
/**
 * A request straight to one instance's registry, on a connection of its own: a kept-alive one
 * reused across tests can be closed by the server's idle timeout as the next request goes out
 * (the client's view of its age lags on a loaded machine after a large body).
 */
const direct = (instance: Berth, path: string, token?: string, method = 'GET') =>
  fetch(`${instance.registryUrl}${path}`, { method, headers: { connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe('three instances behind haproxy', { skip }, () => {
  let cluster: BerthCluster;
  let front: Berth;
  let owner: string;
  let regToken: string;
  let host: string;
  const ref = (repo: string, tag: string) => `docker://${host}/${front.orgName}/${repo}:${tag}`;
  const push = (layout: string, tag: string, dest: string, retries = 0) =>
    skopeo(['copy', '--all', '--preserve-digests', `--retry-times=${retries}`, ...creds('dest', '_token', regToken), `oci:${layout}:${tag}`, dest]);
  const pullInto = (src: string) => {
    const dir = tmp('pull');
    return skopeo(['copy', '--all', '--preserve-digests', ...creds('src', '_token', regToken), src, `oci:${dir}:x`]).then((r) => ({ ...r, dir }));
  };
  const sameBlobs = (from: string, to: string, images: WrittenImage[]) => {
    for (const d of images.flatMap((i) => [i.manifest, i.config, ...i.layers])) {
      const hex = d.digest.split(':')[1];
      assert.deepEqual(readFileSync(join(to, 'blobs', 'sha256', hex)), readFileSync(join(from, 'blobs', 'sha256', hex)), d.digest);
    }
  };
  /** Which instance (haproxy server name) answered each logged request of `method` on the upload with this id. */
  const serversOf = (id: string, methods: string[]) =>
    cluster.balancer
      .requests()
      .filter((r) => r.backend === 'berth-registry' && methods.includes(r.method) && UPLOAD_PATH.exec(r.path)?.[1] === id)
      .map((r) => r.server);

  before(async () => {
    cluster = await startCluster(bucket as TestBucket, 3, ['--allow-insecure-sinks']);
    Object.assign(process.env, (bucket as TestBucket).env); // for `berth registry gc`, which reaches the bucket as the instances do
    front = cluster.front;
    owner = ownerToken(front.credentialsFile, front.url);
    host = registryHost(front);
    regToken = cliToken(front, host).token;
  });
  after(async () => {
    await cluster?.stop();
  });

  it('takes a multi-arch push from skopeo whose uploads span instances, and serves it back byte for byte', async () => {
    const layout = tmp('multi');
    const image = await writeMultiArchImage(layout, 'v1', [
      { architecture: 'amd64', layers: [12 * MiB + 5, 4000] }, // a full multipart part and a tail
      { architecture: 'arm64', layers: [70_000] },
    ]);
    const pushed = await push(layout, 'v1', ref('app', 'v1'));
    assert.equal(pushed.code, 0, pushed.stderr);
    const pulled = await pullInto(ref('app', 'v1'));
    assert.equal(pulled.code, 0, pulled.stderr);
    sameBlobs(layout, pulled.dir, image.images);

    const uploads = new Set(
      cluster.balancer
        .requests()
        .map((r) => UPLOAD_PATH.exec(r.path)?.[1])
        .filter((id): id is string => Boolean(id)),
    );
    assert.ok(uploads.size >= 5, `skopeo's uploads are in haproxy's log: ${uploads.size}`);
    const spanning = [...uploads].filter((id) => new Set(serversOf(id, ['PATCH', 'PUT'])).size > 1);
    assert.ok(spanning.length > 0, 'an upload’s chunk and its commit were served by different instances');
    const served = new Set(
      cluster.balancer
        .requests()
        .filter((r) => r.backend === 'berth-registry')
        .map((r) => r.server),
    );
    assert.deepEqual([...served].sort(), ['berth-1', 'berth-2', 'berth-3']);
  });

  it('commits an upload whose chunks went to different instances, and every instance serves the blob', async () => {
    const repo = new RepoClient(front, 'chunked', regToken);
    const bytes = randomBytes(3 * 4 * MiB + 123); // chunks across the 10 MiB part boundary
    const start = await repo.send('POST', `/v2/${repo.name}/blobs/uploads/`);
    assert.equal(start.status, 202, start.text);
    let location = start.headers.get('location')!;
    const id = UPLOAD_PATH.exec(location)![1];
    for (let offset = 0; offset < bytes.length; offset += 4 * MiB) {
      const chunk = bytes.subarray(offset, Math.min(bytes.length, offset + 4 * MiB));
      const r = await repo.send('PATCH', location, chunk, {
        'content-type': 'application/octet-stream',
        'content-range': `${offset}-${offset + chunk.length - 1}`,
      });
      assert.equal(r.status, 202, r.text);
      location = r.headers.get('location')!;
    }
    const done = await repo.send('PUT', `${location}${location.includes('?') ? '&' : '?'}digest=${sha256(bytes)}`);
    assert.equal(done.status, 201, done.text);
    const patches = serversOf(id, ['PATCH']);
    assert.equal(patches.length, 4);
    assert.ok(new Set(patches).size > 1, `the chunks went to ${patches.join(', ')}`);
    for (const instance of cluster.instances) {
      const r = await direct(instance, `/v2/${repo.name}/blobs/${sha256(bytes)}`, regToken);
      assert.equal(r.status, 200, instance.registryUrl);
      assert.equal(sha256(new Uint8Array(await r.arrayBuffer())), sha256(bytes));
    }
  });

  describe('the OCI conformance suite through the balancer', () => {
    const run = runConformanceLazily({ workflows: { pull: true, push: true, discovery: true, management: true } }, () => ({
      registry: host,
      namespace: `${front.orgName}/conformance`,
      crossmountNamespace: `${front.orgName}/conformance-mount`,
      username: '_token',
      password: regToken,
    }));
    it('passes every spec it runs', () => {
      const failed = [...run.outcomes].filter(([, o]) => o === 'failed').map(([spec]) => spec);
      assert.deepEqual(failed, []);
      assert.ok([...run.outcomes.values()].filter((o) => o === 'passed').length > 50, 'the specs ran');
    });
  });

  it('reads on every instance what another wrote the moment before, and accepts a token minted by any', async () => {
    const [a, b, c] = cluster.instances;
    // An API token exchanged on a, a registry token issued by b's /token: both good everywhere.
    const apiToken = ownerToken(front.credentialsFile, a.url);
    const t = await tokenGet({ ...b, registryPublicUrl: front.registryPublicUrl }, [`repository:${front.orgName}/app:pull`], basic('_token', regToken));
    assert.equal(t.status, 200, t.text);
    for (const instance of cluster.instances) {
      const groups = await rest(instance.url, 'GET', '/iam/v2/groups?uidp.in_root=true', { token: apiToken });
      assert.equal(groups.status, 200, `${instance.url}: ${groups.text}`);
      const tags = await direct(instance, `/v2/${front.orgName}/app/tags/list`, t.json.token);
      assert.equal(tags.status, 200, instance.registryUrl);
      assert.deepEqual(((await tags.json()) as { tags: string[] }).tags, ['v1']);
    }
    const written: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [writer, reader] = [cluster.instances[i], cluster.instances[(i + 1) % 3]];
      const created = await rest(writer.url, 'POST', `/registry/v2/repos/${front.orgUid}`, { token: apiToken, body: { name: `written-${i}` } });
      assert.equal(created.status, 200, created.text);
      const read = await rest(reader.url, 'GET', `/registry/v2/repos/${created.json.uid}`, { token: apiToken });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.json.name, `written-${i}`);
      written.push(created.json.uid);
    }
    const repo = (await rest(a.url, 'POST', `/registry/v2/repos/${front.orgUid}`, { token: apiToken, body: { name: 'moved' } })).json;
    assert.equal((await rest(b.url, 'DELETE', `/registry/v2/repos/${repo.uid}`, { token: apiToken })).status, 200);
    assert.equal((await rest(c.url, 'GET', `/registry/v2/repos/${repo.uid}`, { token: apiToken })).status, 404);
    // gRPC (HTTP/2) through the balancer reaches the instances too.
    const viaGrpc = await grpcClient(ReposService, front.url, apiToken).getRepo({ uid: written[0] });
    assert.equal(viaGrpc.name, 'written-0');
  });

  it('delivers each event once, whichever instance wrote it', async () => {
    const receiver = await EventReceiver.start(front.url);
    try {
      const sub = await rest(front.url, 'POST', `/events/v2/subscriptions/${front.orgUid}`, {
        token: owner,
        body: { sink: receiver.sink('cluster', { group: front.orgUid }) },
      });
      assert.equal(sub.status, 200, sub.text);
      const uids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const writer = cluster.instances[i % 3];
        const r = await rest(writer.url, 'POST', `/registry/v2/repos/${front.orgUid}`, { token: owner, body: { name: `evented-${i}` } });
        assert.equal(r.status, 200, r.text);
        uids.push(r.json.uid);
      }
      const created = () => receiver.deliveredTo('cluster').filter((r) => r.type.endsWith('repo.created.v1') && uids.includes(r.subject));
      await receiver.waitFor('the six events', () => new Set(created().map((r) => r.subject)).size === 6);
      // Once the log says delivered, no instance can claim it again: count then.
      const delivered = async () => {
        const log = await rest(front.url, 'GET', `/events/v2/subscriptions/${sub.json.uid}/deliveries?page_size=100`, { token: owner });
        const ids = new Set(created().map((r) => r.ceId));
        return (log.json.deliveries as Array<{ eventId: string; status: string; attempts: number }>).filter((d) => ids.has(d.eventId));
      };
      let log = await delivered();
      for (let i = 0; i < 200 && !(log.length === 6 && log.every((d) => d.status === 'DELIVERED')); i++) {
        await new Promise((r) => setTimeout(r, 50));
        log = await delivered();
      }
      assert.deepEqual(
        log.map((d) => [d.status, d.attempts]),
        Array(6).fill(['DELIVERED', 1]),
      );
      assert.equal(created().length, 6, 'no event was delivered twice');
      assert.deepEqual(receiver.problems(), []);
    } finally {
      await receiver.close();
    }
  });

  it('collects garbage beside the serving instances, which go on pushing and pulling', async () => {
    const repo = new RepoClient(front, 'gc', regToken);
    const orphan = await repo.pushBlob(randomBytes(5000)); // no manifest lists it
    const layout = tmp('gc');
    const image = await writeImage(layout, 'g', { layers: [200_000] });
    const [report, pushed, pulled] = await Promise.all([
      gc(cluster.instances[0], ...cluster.blobStoreFlags, '--grace', '0s'),
      push(layout, 'g', ref('gc', 'g'), 3), // may lose a race with gc (grace 0): skopeo retries
      pullInto(ref('app', 'v1')),
    ]);
    assert.ok(report.blobsDeleted >= 1, JSON.stringify(report));
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(pulled.code, 0, pulled.stderr);
    for (const instance of cluster.instances) {
      const r = await direct(instance, `/v2/${repo.name}/blobs/${orphan}`, regToken, 'HEAD');
      assert.equal(r.status, 404, `${instance.registryUrl} no longer serves the collected blob`);
    }
    const back = await pullInto(ref('gc', 'g'));
    assert.equal(back.code, 0, back.stderr);
    sameBlobs(layout, back.dir, [image]);
  });

  it('finishes a push through the others when an instance is killed in the middle of it, and nothing is corrupt', async () => {
    const layout = tmp('kill');
    const image = await writeImage(layout, 'k', { layers: [64 * MiB, 3000] });
    const logged = cluster.balancer.requests().length;
    const pushing = push(layout, 'k', ref('killed', 'k'));
    // The instance serving the big layer's upload: its upload gauge stays up while the others' blink.
    const victim = await uploadingInstance(cluster.instances, pushing);
    assert.ok(victim, 'an instance was caught serving the large upload');
    await victim.stop('SIGKILL');
    // The push may fail (its connection broke mid-chunk: skopeo's --retry-times does not retry a
    // broken pipe), and its retry goes through the instances left; or the balancer's redispatch saved it.
    let pushed = await pushing;
    const first = { code: pushed.code, at: Date.now() };
    if (pushed.code !== 0) pushed = await push(layout, 'k', ref('killed', 'k'));
    assert.equal(pushed.code, 0, pushed.stderr);
    const back = await pullInto(ref('killed', 'k'));
    assert.equal(back.code, 0, back.stderr);
    sameBlobs(layout, back.dir, [image]);
    // The upload the killed instance was serving: another instance still answers for it, with only
    // what was acknowledged (a chunk cut short counts for nothing), or knows it as committed and gone.
    const victimName = `berth-${cluster.instances.indexOf(victim) + 1}`;
    const cut = cluster.balancer
      .requests()
      .slice(logged)
      .find((r) => r.server === victimName && r.status !== 202 && r.status !== 201 && UPLOAD_PATH.test(r.path));
    assert.ok(cut, `haproxy logged the request cut short on ${victimName} (first push exited ${first.code})`);
    const status = await direct(front, cut.path.split('?')[0], regToken);
    assert.ok(status.status === 204 || status.status === 404, `upload status ${status.status}`);
    if (status.status === 204) assert.match(status.headers.get('range')!, cut.method === 'PATCH' ? /^0-0$/ : new RegExp(`^0-${64 * MiB - 1}$`));
    for (const instance of cluster.instances.filter((i) => i !== victim)) {
      const r = await direct(instance, `/v2/${front.orgName}/killed/blobs/${image.layers[0].digest}`, regToken, 'HEAD');
      assert.equal(r.status, 200, instance.registryUrl);
      assert.equal(r.headers.get('content-length'), String(64 * MiB));
    }
  });
});

/** Polls each instance's upload gauge until one has served an upload request for 300 ms; undefined if the push ends first. */
async function uploadingInstance(instances: Berth[], pushing: Promise<unknown>): Promise<Berth | undefined> {
  let ended = false;
  void pushing.then(() => {
    ended = true;
  });
  const since = new Map<Berth, number>();
  while (!ended) {
    for (const instance of instances) {
      const text = await direct(instance, '/metrics').then((r) => r.text());
      const busy = Number(/^berth_registry_uploads_in_progress (\d+)/m.exec(text)?.[1] ?? 0) > 0;
      if (!busy) since.delete(instance);
      else if (!since.has(instance)) since.set(instance, Date.now());
      else if (Date.now() - since.get(instance)! >= 300) return instance;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}
