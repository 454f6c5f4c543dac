// The Images API: architectures, size (amd64 by default) and Berth's
// per-platform listing of a repo's manifests, over REST and gRPC, with
// permission checked before existence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { ImagesService } from '../../src/gen/berth/registry/v2/images_pb.js';
import { grpcClient, identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { seedImage, seedIndex, type SeededIndex } from '../harness/registry-content.js';

const CONFIG = 200; // the config blob size seeded images get

function resourceOf(r: RestResult): { resourceType: string; resourceName: string } {
  return r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('ResourceInfo'));
}

function fieldsOf(r: RestResult): string[] {
  return r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest')).fieldViolations.map((v: { field: string }) => v.field);
}

describe('images API', () => {
  let berth: Berth;
  let token: string;
  let repo: string;
  let other: string;
  /** A single-architecture image (amd64, layers 1000 + 2000). */
  let single: string;
  /** An arm64-only image. */
  let armOnly: string;
  /** amd64, arm64, arm/v7 and a BuildKit attestation entry. */
  let index: SeededIndex;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    repo = (await rest(b.url, 'POST', `/registry/v2/repos/${b.orgUid}`, { token, body: { name: 'imgs' } })).json.uid;
    other = (await rest(b.url, 'POST', `/registry/v2/repos/${b.orgUid}`, { token, body: { name: 'other' } })).json.uid;
    single = await seedImage(b, repo, { layers: [1000, 2000] });
    armOnly = await seedImage(b, repo, { architecture: 'arm64' });
    index = await seedIndex(b, repo, [
      { architecture: 'amd64', layers: [5000, 7000] },
      { architecture: 'arm64', layers: [4000] },
      { architecture: 'arm', variant: 'v7', layers: [3000] },
      { architecture: 'unknown', os: 'unknown', layers: [10] },
    ]);
  });

  const get = (path: string, as = token) => rest(berth.url, 'GET', path, { token: as });
  const images = (r: string, digest: string, call: string) => `/registry/v2/repos/${r}/digests/${digest}/${call}`;

  it('answers the architectures of a single image and of an index', async () => {
    const one = await get(images(repo, single, 'architectures'));
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.json, { architectures: ['amd64'] });
    const many = await get(images(repo, index.digest, 'architectures'));
    assert.deepEqual(many.json, { architectures: ['amd64', 'arm64', 'arm'] });
    const beta = await get(`/registry/v2beta1/repos/${repo}/digests/${index.digest.replace(':', '%3A')}/architectures`);
    assert.deepEqual(beta.json, many.json);
  });

  it('sizes an architecture as config plus layers, amd64 by default', async () => {
    assert.deepEqual((await get(images(repo, single, 'size'))).json, { size: String(CONFIG + 1000 + 2000), architecture: 'amd64' });
    assert.deepEqual((await get(`${images(repo, index.digest, 'size')}`)).json, { size: String(CONFIG + 5000 + 7000), architecture: 'amd64' });
    assert.deepEqual((await get(`${images(repo, index.digest, 'size')}?architecture=arm64`)).json, { size: String(CONFIG + 4000), architecture: 'arm64' });
    assert.deepEqual((await get(`${images(repo, index.digest, 'size')}?architecture=arm`)).json, { size: String(CONFIG + 3000), architecture: 'arm' });
    assert.deepEqual((await get(`${images(repo, armOnly, 'size')}?architecture=arm64`)).json, { size: String(CONFIG + 100), architecture: 'arm64' });
  });

  it('answers NOT_FOUND for an architecture the image does not offer', async () => {
    for (const [digest, query, architecture] of [
      [armOnly, '', 'amd64'],
      [single, '?architecture=arm64', 'arm64'],
      [index.digest, '?architecture=s390x', 's390x'],
      [index.digest, '?architecture=unknown', 'unknown'],
    ]) {
      const r = await get(`${images(repo, digest, 'size')}${query}`);
      assert.equal(r.status, 404, r.text);
      assert.equal(r.json.code, Code.NotFound);
      assert.deepEqual([resourceOf(r).resourceType, resourceOf(r).resourceName], ['registry.berth.dev/Architecture', `${architecture} of ${repo}@${digest}`]);
    }
  });

  it('lists the platform images of an index with their digests and sizes', async () => {
    const r = await get(images(repo, index.digest, 'platforms'));
    assert.equal(r.status, 200, r.text);
    const [amd, arm, armv7] = index.images;
    assert.deepEqual(r.json, {
      platforms: [
        { architecture: 'amd64', os: 'linux', variant: '', digest: amd.digest, size: String(amd.size) },
        { architecture: 'arm64', os: 'linux', variant: '', digest: arm.digest, size: String(arm.size) },
        { architecture: 'arm', os: 'linux', variant: 'v7', digest: armv7.digest, size: String(armv7.size) },
      ],
    });
    assert.equal(amd.size, CONFIG + 5000 + 7000);
    const one = await get(images(repo, single, 'platforms'));
    assert.deepEqual(one.json, { platforms: [{ architecture: 'amd64', os: 'linux', variant: '', digest: single, size: String(CONFIG + 3000) }] });
  });

  it('answers NOT_FOUND for an unknown repo or a digest the repo does not hold', async () => {
    const missingRepo = `${berth.orgUid}/0000000000000000`;
    const elsewhere = await seedImage(berth, other);
    for (const call of ['architectures', 'size', 'platforms']) {
      const noRepo = await get(images(missingRepo, single, call));
      assert.equal(noRepo.status, 404, noRepo.text);
      assert.deepEqual([resourceOf(noRepo).resourceType, resourceOf(noRepo).resourceName], ['registry.berth.dev/Repo', missingRepo]);
      for (const digest of [`sha256:${'e'.repeat(64)}`, elsewhere, `sha512:${'e'.repeat(128)}`]) {
        const r = await get(images(repo, digest, call));
        assert.equal(r.status, 404, r.text);
        assert.deepEqual([resourceOf(r).resourceType, resourceOf(r).resourceName], ['registry.berth.dev/Image', `${repo}@${digest}`]);
      }
    }
  });

  it('rejects a malformed digest or architecture with INVALID_ARGUMENT', async () => {
    for (const digest of ['sha256:xyz', `sha256:${'A'.repeat(64)}`, `md5:${'a'.repeat(32)}`, 'latest']) {
      const r = await get(images(repo, encodeURIComponent(digest), 'architectures'));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, Code.InvalidArgument);
      assert.deepEqual(fieldsOf(r), ['digest']);
    }
    const arch = await get(`${images(repo, index.digest, 'size')}?architecture=${encodeURIComponent('a b')}`);
    assert.equal(arch.status, 400, arch.text);
    assert.deepEqual(fieldsOf(arch), ['architecture']);
    const badRepo = await get(images('not-a-uid', index.digest, 'size'));
    assert.equal(badRepo.status, 400, badRepo.text);
  });

  it('checks repo.list and manifest.metadata.list at the repo before anything exists', async () => {
    const none = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const role = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'lister', capabilities: ['CAP_REPO_LIST'] } });
    assert.equal(role.status, 200, role.text);
    const listerOnly = await identityWithRole(berth.url, token, berth.orgUid, 'lister', berth.orgUid);
    const missingRepo = `${berth.orgUid}/0000000000000000`;
    for (const caller of [none.token, listerOnly.token]) {
      for (const path of [
        images(repo, index.digest, 'architectures'),
        images(repo, `sha256:${'e'.repeat(64)}`, 'size'),
        images(missingRepo, index.digest, 'platforms'),
        images(repo, 'sha256:xyz', 'size'),
      ]) {
        const r = await get(path, caller);
        assert.equal(r.status, 403, `${path}: ${r.text}`);
        assert.equal(r.json.code, Code.PermissionDenied);
      }
    }
    const unauthenticated = await rest(berth.url, 'GET', images(repo, index.digest, 'architectures'));
    assert.equal(unauthenticated.status, 401);
    // The built-in viewer role has both, where it is bound.
    const team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'team' } })).json.uid;
    const teamRepo = (await rest(berth.url, 'POST', `/registry/v2/repos/${team}`, { token, body: { name: 'team-app' } })).json.uid;
    const teamImage = await seedImage(berth, teamRepo, { architecture: 'riscv64' });
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', team);
    assert.deepEqual((await get(images(teamRepo, teamImage, 'architectures'), viewer.token)).json, { architectures: ['riscv64'] });
    assert.equal((await get(images(repo, index.digest, 'architectures'), viewer.token)).status, 403);
  });

  it('serves the same answers over gRPC', async () => {
    const client = grpcClient(ImagesService, berth.url, token);
    assert.deepEqual((await client.getArchitectures({ repoUid: repo, digest: index.digest })).architectures, ['amd64', 'arm64', 'arm']);
    const size = await client.getSize({ repoUid: repo, digest: index.digest });
    assert.deepEqual([size.size, size.architecture], [BigInt(CONFIG + 5000 + 7000), 'amd64']);
    const arm = await client.getSize({ repoUid: repo, digest: index.digest, architecture: 'arm64' });
    assert.equal(arm.size, BigInt(CONFIG + 4000));
    const platforms = await client.getPlatforms({ repoUid: repo, digest: index.digest });
    assert.deepEqual(
      platforms.platforms.map((p) => [p.architecture, p.variant, p.digest, p.size]),
      index.images.slice(0, 3).map((i) => [i.architecture, i.variant ?? '', i.digest, BigInt(i.size)]),
    );
    const codeOf = async (p: Promise<unknown>) => {
      try {
        await p;
        return Code[0];
      } catch (err) {
        assert.ok(err instanceof ConnectError);
        return Code[err.code];
      }
    };
    assert.equal(await codeOf(client.getSize({ repoUid: repo, digest: index.digest, architecture: 's390x' })), 'NotFound');
    assert.equal(await codeOf(client.getArchitectures({ repoUid: repo, digest: `sha256:${'e'.repeat(64)}` })), 'NotFound');
    assert.equal(await codeOf(client.getArchitectures({ repoUid: repo, digest: 'nope' })), 'InvalidArgument');
    assert.equal(await codeOf(client.getArchitectures({ repoUid: repo, digest: '' })), 'InvalidArgument');
    const none = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const denied = grpcClient(ImagesService, berth.url, none.token);
    assert.equal(await codeOf(denied.getArchitectures({ repoUid: `${berth.orgUid}/0000000000000000`, digest: index.digest })), 'PermissionDenied');
  });
});
