// The registry's access events with a real client: a skopeo push writes
// registry.push.v1 for the manifest (with its tag) and for each blob it
// uploads, plus repo.created for the repo the push made; a pull writes
// registry.pull.v1 for the manifest (GET or HEAD) and each blob it reads,
// before the client has its bytes. The body is the reference's snake_case
// access record; group is the repo's group, subject the repo, actor the
// token's identity (none for an anonymous pull). Refused requests write none.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import '../../src/events/events-tables.js';
import type { Store } from '../../src/store/store.js';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { writeImage, type WrittenImage } from '../harness/oci-layout.js';
import { openBerthStore } from '../harness/registry-content.js';
import { cliToken, registryGet, registryHost, tokenGet } from '../harness/registry-client.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

interface Event {
  type: string;
  group: string;
  subject: string;
  actor: { subject?: string };
  extensions: Record<string, string>;
  bodyType: string;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted on as loose JSON
  body: any;
}

describe('registry push and pull events', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let store: Store;
  let host: string;
  let regToken: string;
  let image: WrittenImage;
  let layout: string;
  let repoUid = '';

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });
  before(async () => {
    store = await openBerthStore(berth);
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
    layout = tmp('img');
    image = await writeImage(layout, 'v1', { layers: [3000, 70_000] });
  });
  after(() => store?.close());

  const lastId = async () =>
    Number(
      (
        await store.db
          .selectFrom('event_outbox')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );
  // Every event since `id` but the vulnerability reports, which the scan of a
  // pushed image writes on its own time (test/scanning/vuln-report.test.ts).
  const eventsAfter = async (id: number): Promise<Event[]> =>
    (
      await store.db.selectFrom('event_outbox').selectAll().where('id', '>', id).where('type', '!=', 'registry.vulnreport.updated.v1').orderBy('id').execute()
    ).map((r) => ({
      type: r.type,
      group: r.group_uid,
      subject: r.subject,
      actor: JSON.parse(r.actor),
      extensions: JSON.parse(r.extensions),
      bodyType: r.body_type,
      body: JSON.parse(r.body),
    }));
  const ref = (repo: string, tag: string) => `docker://${host}/${berth.orgName}/${repo}:${tag}`;
  const blobDigests = () => [image.config.digest, ...image.layers.map((l) => l.digest)].sort();

  /** What every access event of the repo carries besides its body's own fields. */
  const assertAccess = (e: Event, kind: 'push' | 'pull', actor?: string) => {
    assert.equal(e.type, `registry.${kind}.v1`);
    assert.equal(e.group, berth.orgUid);
    assert.equal(e.subject, repoUid);
    assert.deepEqual(e.actor, actor === undefined ? {} : { subject: actor });
    assert.deepEqual(e.extensions, { group: berth.orgUid });
    assert.equal(e.bodyType, kind === 'push' ? 'berth.registry.PushEvent' : 'berth.registry.PullEvent');
    assert.equal(e.body.repository, `${berth.orgName}/events/app`);
    assert.equal(e.body.repo_id, repoUid);
    assert.match(e.body.when, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(e.body.remote_address, /127\.0\.0\.1$/);
    assert.equal(typeof e.body.user_agent, 'string');
  };

  it('a push writes repo.created for the repo it makes, a push event per blob and one for the tagged manifest', async () => {
    const before = await lastId();
    const pushed = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', regToken), `oci:${layout}:v1`, ref('events/app', 'v1')]);
    assert.equal(pushed.code, 0, pushed.stderr);
    const events = await eventsAfter(before);

    const created = events.filter((e) => e.type === 'api.platform.registry.repo.created.v1');
    assert.equal(created.length, 1, JSON.stringify(events.map((e) => e.type)));
    repoUid = created[0].subject;
    assert.equal(created[0].group, berth.orgUid);
    assert.deepEqual(created[0].actor, { subject: berth.ownerIdentity });
    assert.equal(created[0].body.name, 'events/app');

    const pushes = events.filter((e) => e.type === 'registry.push.v1');
    for (const e of pushes) assertAccess(e, 'push', berth.ownerIdentity);
    const manifests = pushes.filter((e) => e.body.type === 'manifest');
    assert.deepEqual(
      manifests.map((e) => [e.body.tag, e.body.digest, e.body.method]),
      [['v1', image.manifest.digest, undefined]],
    );
    assert.deepEqual(
      pushes
        .filter((e) => e.body.type === 'blob')
        .map((e) => e.body.digest)
        .sort(),
      blobDigests(),
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'registry.pull.v1').map((e) => e.body.digest),
      [],
      'pushing reads nothing back',
    );
  });

  it('a pull writes a pull event for the manifest it reads and for each blob', async () => {
    const before = await lastId();
    const pulled = await skopeo(['copy', '--preserve-digests', ...creds('src', '_token', regToken), ref('events/app', 'v1'), `oci:${tmp('pull')}:v1`]);
    assert.equal(pulled.code, 0, pulled.stderr);
    const events = await eventsAfter(before);
    assert.deepEqual([...new Set(events.map((e) => e.type))], ['registry.pull.v1']);
    for (const e of events) assertAccess(e, 'pull', berth.ownerIdentity);
    const manifests = events.filter((e) => e.body.type === 'manifest');
    assert.ok(manifests.length >= 1);
    for (const e of manifests) {
      assert.equal(e.body.digest, image.manifest.digest);
      assert.equal(e.body.tag, 'v1');
    }
    assert.ok(manifests.some((e) => e.body.method === 'GET'));
    const blobs = events.filter((e) => e.body.type === 'blob');
    assert.deepEqual([...new Set(blobs.map((e) => e.body.digest))].sort(), blobDigests());
    for (const e of blobs) assert.equal(e.body.method, 'GET');
  });

  it('a manifest HEAD is a pull with method HEAD; a blob HEAD, an unknown tag and a refused push are none', async () => {
    const auth = `Bearer ${regToken}`;
    let before = await lastId();
    const head = await registryGet(berth, `/v2/${berth.orgName}/events/app/manifests/${image.manifest.digest}`, auth, 'HEAD');
    assert.equal(head.status, 200);
    const [e, ...more] = await eventsAfter(before);
    assert.deepEqual(more, []);
    assertAccess(e, 'pull', berth.ownerIdentity);
    assert.deepEqual([e.body.method, e.body.type, e.body.digest, e.body.tag], ['HEAD', 'manifest', image.manifest.digest, undefined]);

    before = await lastId();
    assert.equal((await registryGet(berth, `/v2/${berth.orgName}/events/app/blobs/${image.config.digest}`, auth, 'HEAD')).status, 200);
    assert.equal((await registryGet(berth, `/v2/${berth.orgName}/events/app/manifests/nope`, auth)).status, 404);
    const missing = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { ...image.config, digest: `sha256:${'1'.repeat(64)}` },
      layers: [],
    };
    const refused = await rest(berth.registryUrl as string, 'PUT', `/v2/${berth.orgName}/events/app/manifests/broken`, {
      rawBody: JSON.stringify(missing),
      headers: { authorization: auth, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(await eventsAfter(before), []);
  });

  it('an anonymous pull of the public organization has no actor', async () => {
    const pub = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'public' } });
    assert.equal(pub.status, 200, pub.text);
    const pushed = await skopeo([
      'copy',
      '--preserve-digests',
      ...creds('dest', '_token', regToken),
      `oci:${layout}:v1`,
      `docker://${host}/public/base:latest`,
    ]);
    assert.equal(pushed.code, 0, pushed.stderr);
    const t = await tokenGet(berth, ['repository:public/base:pull']);
    assert.equal(t.status, 200, t.text);
    const before = await lastId();
    const got = await registryGet(berth, '/v2/public/base/manifests/latest', `Bearer ${t.json.token}`);
    assert.equal(got.status, 200, got.text);
    const events = await eventsAfter(before);
    assert.deepEqual(
      events.map((e) => [e.type, e.group, e.actor, e.body.repository, e.body.tag, e.body.method]),
      [['registry.pull.v1', pub.json.uid, {}, 'public/base', 'latest', 'GET']],
    );
  });
});
