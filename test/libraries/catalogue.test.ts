// The library catalogue end to end: a mirror built in the test (PEP 503 and
// PEP 691 pages, wheels with METADATA, sdists with PKG-INFO, CUDA indexes, a
// Maven tree, npm packuments, broken files) imported with `berth libraries
// import`, then read through the v2 and v1 APIs over REST and gRPC: filters,
// version order across keyset pages, v1 and v2 on the same data, access
// (no token, a subgroup-bound caller, another organization's owner).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { ArtifactsService, Ecosystem } from '../../src/gen/berth/libraries/v2/artifacts_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { MAVEN_VERSIONS, wheel, writeLibraryMirror } from '../harness/library-mirror.js';

describe('library catalogue', () => {
  let b: Berth;
  let token: string;
  let mirror: string;
  const importMirror = (...extra: string[]) => importDir(mirror, ...extra);
  const importDir = (dir: string, ...extra: string[]) => {
    const args = ['libraries', 'import', dir, '--data', b.dataDir, ...extra];
    if (b.databaseUrl) args.push('--database', b.databaseUrl);
    return berthCli(args);
  };
  const get = (path: string, as = token) => rest(b.url, 'GET', path, { token: as });
  /** Every item of a v2 list, page by page. */
  const allPages = async (path: string, field: string, pageSize: number) => {
    const items: Array<Record<string, string>> = [];
    let pageToken = '';
    for (let i = 0; i < 100; i++) {
      const r = await get(`${path}${path.includes('?') ? '&' : '?'}pageSize=${pageSize}&pageToken=${encodeURIComponent(pageToken)}`);
      assert.equal(r.status, 200, r.text);
      items.push(...r.json[field]);
      pageToken = r.json.nextPageToken;
      if (pageToken === '') return items;
    }
    throw new Error('paging did not end');
  };

  useBerth(async (berth, owner) => {
    b = berth;
    token = owner;
    mirror = await mkdtemp(join(tmpdir(), 'berth-mirror-'));
    await writeLibraryMirror(mirror);
  });

  it('imports a mirror, reports the broken files with their paths, and writes nothing on a dry run or a second run', async () => {
    const dry = await importMirror('--dry-run');
    assert.match(dry.stdout, /dry run, nothing written/);
    assert.equal((await get('/libraries/v2/artifacts/count?ecosystems=ECOSYSTEM_PYTHON')).json.counts[0].totalCount, '0');

    const first = await importMirror('-o', 'json');
    assert.equal(first.code, 1, 'broken files make the exit status 1');
    for (const bad of ['flat/broken-1.0-py3-none-any.whl', 'maven/com/example/broken/maven-metadata.xml', 'npm/simple-broken/index.json'])
      assert.match(first.stderr, new RegExp(`${bad.replace(/[.+]/g, '\\$&')}: .*\\(skipped\\)`), first.stderr);
    const s = JSON.parse(first.stdout);
    assert.deepEqual(s.artifacts, { python: 4, java: 1, javascript: 2 });
    assert.equal(s.artifactsAdded, 7);
    assert.equal(s.versionsAdded, 4 + 2 + 2 + 2 + MAVEN_VERSIONS.length + 3 + 1);
    assert.equal(s.group, b.orgUid);

    const again = await importMirror('-o', 'json');
    const s2 = JSON.parse(again.stdout);
    assert.equal(s2.artifactsAdded + s2.artifactsChanged + s2.versionsAdded + s2.versionsChanged, 0);
    assert.equal(s2.versionsUnchanged, s.versionsAdded);
  });

  it('lists artifacts by name with totals, query, remediated and cudaVersion filters', async () => {
    const py = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON');
    assert.equal(py.status, 200, py.text);
    assert.deepEqual(
      py.json.artifacts.map((a: { uid: string }) => a.uid),
      ['pypi:flask', 'pypi:requests', 'pypi:six', 'pypi:torch'],
    );
    assert.equal(py.json.totalCount, '4');
    const flask = py.json.artifacts[0];
    assert.equal(flask.name, 'Flask');
    assert.equal(flask.ecosystem, 'ECOSYSTEM_PYTHON');
    assert.equal(flask.latestVersion, '1.0.0.post1');
    assert.equal(flask.description, 'Flask post release');
    assert.equal(flask.versionCount, 4);
    assert.equal(flask.createTime, '2024-01-10T12:00:00.000Z');
    assert.equal(flask.updateTime, '2024-01-13T12:00:00.000Z');

    const both = await allPages('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&ecosystems=ECOSYSTEM_PYTHON', 'artifacts', 1);
    assert.deepEqual(
      both.map((a) => a.name),
      ['Flask', 'org.apache.commons:commons-lang3', 'requests', 'six', 'torch'],
    );
    const desc = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&orderBy=name%20desc&skip=1&pageSize=2');
    assert.deepEqual(
      desc.json.artifacts.map((a: { name: string }) => a.name),
      ['six', 'requests'],
    );
    assert.equal(desc.json.skipped, 1);

    const q = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&ecosystems=ECOSYSTEM_JAVA&query=LANG');
    assert.deepEqual(
      q.json.artifacts.map((a: { uid: string }) => a.uid),
      ['maven:org.apache.commons:commons-lang3'],
    );
    const rem = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&ecosystems=ECOSYSTEM_JAVA&remediated=true');
    assert.deepEqual(
      rem.json.artifacts.map((a: { uid: string }) => a.uid),
      ['pypi:flask', 'maven:org.apache.commons:commons-lang3'],
    );
    for (const cuda of ['cu128', '12.8', '12.6']) {
      const c = await get(`/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&cudaVersion=${cuda}`);
      assert.deepEqual(
        c.json.artifacts.map((a: { uid: string }) => a.uid),
        ['pypi:torch'],
        cuda,
      );
    }
    assert.equal((await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&cudaVersion=cu118')).json.artifacts.length, 0);
    const counts = await get('/libraries/v2/artifacts/count?ecosystems=ECOSYSTEM_PYTHON&ecosystems=ECOSYSTEM_JAVA');
    assert.deepEqual(counts.json.counts, [
      { ecosystem: 'ECOSYSTEM_PYTHON', totalCount: '4' },
      { ecosystem: 'ECOSYSTEM_JAVA', totalCount: '1' },
    ]);
  });

  it('orders versions by the ecosystem, newest first, across keyset pages', async () => {
    // PEP 440: a local version (+cgr.1) sorts right after its public version, before a post-release.
    const flask = await allPages('/libraries/v2/artifacts/pypi:flask/versions', 'artifactVersions', 1);
    assert.deepEqual(
      flask.map((v) => v.version),
      ['1.0.0.post1', '1.0.0+cgr.1', '1.0.0', '1.0.0rc1'],
    );
    const post = flask[0];
    assert.equal(post.uid, 'pypi:flask:1.0.0.post1');
    assert.equal(post.name, 'Flask');
    assert.equal(post.description, 'Flask post release');
    assert.equal(post.createTime, '2024-01-12T12:00:00.000Z');
    assert.ok(Number(post.sizeBytes) > 0);
    assert.equal(flask[2].description, 'A simple framework for building web applications.');
    const asc = await get('/libraries/v2/artifacts/pypi:flask/versions?orderBy=version%20asc&pageSize=2');
    assert.deepEqual(
      asc.json.artifactVersions.map((v: { version: string }) => v.version),
      ['1.0.0rc1', '1.0.0'],
    );
    assert.equal(asc.json.totalCount, '4');

    // Maven ComparableVersion: alpha < beta < rc < release < sp, and the -0.cgr.1 rebuild after them.
    const lang = await allPages('/libraries/v2/artifacts/maven:org.apache.commons:commons-lang3/versions', 'artifactVersions', 3);
    assert.deepEqual(
      lang.map((v) => v.version),
      ['3.18.1', '3.18.0-0.cgr.1', '3.18.0-sp1', '3.18.0', '3.18.0-rc1', '3.18.0-beta1', '3.18.0-alpha1', '3.17.0'],
    );
    assert.equal(lang[0].description, 'Apache Commons Lang & more, 3.18.1');
    assert.equal(lang[0].sizeBytes, String(1000 + MAVEN_VERSIONS.indexOf('3.18.1')));
    const requests = await get('/libraries/v2/artifacts/pypi:requests/versions');
    assert.deepEqual(
      requests.json.artifactVersions.map((v: { version: string; sizeBytes: string; createTime: string }) => [v.version, v.sizeBytes, v.createTime]),
      [
        ['2.32.0', '63000', '2024-05-20T14:00:00.000Z'],
        ['2.31.0', '62574', '2023-05-22T15:12:42.313Z'],
      ],
    );
    const missing = await get('/libraries/v2/artifacts/pypi:nope/versions');
    assert.equal(missing.status, 404);
  });

  it('serves the same catalogue through v1 (ids, created_at, items, JavaScript) and gRPC', async () => {
    const v1 = await get('/libraries/v1/artifacts?ecosystems=PYTHON&pageSize=2');
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(
      v1.json.items.map((a: { id: string }) => a.id),
      ['pypi:flask', 'pypi:requests'],
    );
    assert.equal(v1.json.items[0].createdAt, '2024-01-10T12:00:00.000Z');
    assert.equal(v1.json.items[0].ecosystem, 'PYTHON');
    assert.equal(v1.json.totalArtifacts, 4);
    const next = await get(`/libraries/v1/artifacts?ecosystems=PYTHON&pageSize=2&pageToken=${encodeURIComponent(v1.json.nextPageToken)}`);
    assert.deepEqual(
      next.json.items.map((a: { id: string }) => a.id),
      ['pypi:six', 'pypi:torch'],
    );
    const js = await get('/libraries/v1/artifacts?ecosystems=JAVASCRIPT');
    assert.deepEqual(
      js.json.items.map((a: { id: string; name: string }) => [a.id, a.name]),
      [
        ['npm:@babel:core', '@babel/core'],
        ['npm:left-pad', 'left-pad'],
      ],
    );
    const pad = await get('/libraries/v1/artifacts/npm:left-pad/versions');
    assert.deepEqual(
      pad.json.items.map((v: { id: string }) => v.id),
      ['npm:left-pad:1.3.0:INTERNAL', 'npm:left-pad:1.1.0-0.cgr.1:INTERNAL_REMEDIATED', 'npm:left-pad:1.0.0:INTERNAL'],
    );
    assert.equal(pad.json.items[0].sizeBytes, '3000');
    assert.equal(pad.json.items[2].updatedAt, '2016-01-01T00:00:00.000Z');
    const none = await get('/libraries/v1/artifacts/pypi:nope/versions');
    assert.equal(none.status, 200);
    assert.deepEqual(none.json.items ?? [], []);
    const count = await get('/libraries/v1/artifacts/count?ecosystems=JAVA&ecosystems=JAVASCRIPT');
    assert.deepEqual(count.json.counts, [
      { ecosystem: 'JAVA', totalArtifacts: 1 },
      { ecosystem: 'JAVASCRIPT', totalArtifacts: 2 },
    ]);
    // v2 hides JavaScript from the artifact lists: only Java and Python are its ecosystems.
    const v2 = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA');
    assert.deepEqual(
      v2.json.artifacts.map((a: { uid: string }) => a.uid),
      ['maven:org.apache.commons:commons-lang3'],
    );

    const client = grpcClient(ArtifactsService, b.url, token);
    const page = await client.listArtifacts({ ecosystems: [Ecosystem.PYTHON], query: 'fla' });
    assert.deepEqual(
      page.artifacts.map((a) => a.uid),
      ['pypi:flask'],
    );
    assert.equal(page.totalCount, 1n);
    const versions = await client.listArtifactVersions({ artifactId: 'pypi:flask', pageSize: 2 });
    assert.deepEqual(
      versions.artifactVersions.map((v) => v.version),
      ['1.0.0.post1', '1.0.0+cgr.1'],
    );
    const err = await client.listArtifacts({ ecosystems: [] }).catch((e) => ConnectError.from(e));
    assert.ok(err instanceof ConnectError && err.code === Code.InvalidArgument);
  });

  it('shows the organization catalogue to a subgroup-bound caller, nothing to another organization or without a token', async () => {
    assert.equal((await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON', '')).status, 401);
    const sub = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token, body: { name: 'lib-sub' } })).json.uid as string;
    const member = await identityWithRole(b.url, token, b.orgUid, 'viewer', sub);
    const seen = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON', member.token);
    assert.equal(seen.json.totalCount, '4');
    assert.equal((await get('/libraries/v2/artifacts/pypi:flask/versions', member.token)).json.artifactVersions.length, 4);

    const unbound = await identityWithRole(b.url, token, b.orgUid, undefined, sub);
    const nothing = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON', unbound.token);
    assert.equal(nothing.status, 200);
    assert.equal(nothing.json.totalCount, '0');

    const otherOrg = (await rest(b.url, 'POST', '/iam/v2/groups', { token, body: { name: `lib-other-${Date.now()}` } })).json.uid as string;
    const stranger = await identityWithRole(b.url, token, otherOrg, 'owner', otherOrg);
    const list = await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&ecosystems=ECOSYSTEM_JAVA', stranger.token);
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.artifacts, []);
    assert.equal(list.json.totalCount, '0');
    const versions = await get('/libraries/v2/artifacts/pypi:flask/versions', stranger.token);
    assert.equal(versions.status, 404, 'the same answer as for an artifact that does not exist');
    assert.equal(
      versions.json.message,
      (await get('/libraries/v2/artifacts/pypi:nope/versions', stranger.token)).json.message.replace('pypi:nope', 'pypi:flask'),
    );
    assert.deepEqual((await get('/libraries/v1/artifacts/pypi:flask/versions', stranger.token)).json.items ?? [], []);
    assert.deepEqual((await get('/libraries/v2/artifacts/count?ecosystems=ECOSYSTEM_PYTHON', stranger.token)).json.counts, [
      { ecosystem: 'ECOSYSTEM_PYTHON', totalCount: '0' },
    ]);
  });

  it('merges a later mirror: a new version takes its place in the order, the others are kept', async () => {
    const later = await mkdtemp(join(tmpdir(), 'berth-mirror-later-'));
    await writeFile(join(later, 'Flask-1.0.0b1-py3-none-any.whl'), wheel('Flask', '1.0.0b1', 'Flask beta'));
    const r = await importDir(later, '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.deepEqual([s.artifactsAdded, s.artifactsChanged, s.versionsAdded], [0, 1, 1]);
    const versions = await allPages('/libraries/v2/artifacts/pypi:flask/versions', 'artifactVersions', 2);
    assert.deepEqual(
      versions.map((v) => v.version),
      ['1.0.0.post1', '1.0.0+cgr.1', '1.0.0', '1.0.0rc1', '1.0.0b1'],
    );
    const flask = (await get('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&query=flask')).json.artifacts[0];
    assert.equal(flask.versionCount, 5);
    assert.equal(flask.latestVersion, '1.0.0.post1');
  });

  it('keeps a catalogue imported into a subgroup to that subgroup, its ancestors and its descendants', async () => {
    const team = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token, body: { name: 'lib-team' } })).json.uid as string;
    const sibling = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token, body: { name: 'lib-sibling' } })).json.uid as string;
    const own = await mkdtemp(join(tmpdir(), 'berth-mirror-team-'));
    await mkdir(join(own, 'npm'));
    await writeFile(join(own, 'npm', 'team-only.json'), JSON.stringify({ name: 'team-only', versions: { '0.1.0': { description: 'internal' } } }));
    const r = await importDir(own, '--group', 'lib-team');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`into group lib-team \\(${team}\\)`));
    const ids = async (as: string) => ((await get('/libraries/v1/artifacts?ecosystems=JAVASCRIPT', as)).json.items ?? []).map((a: { id: string }) => a.id);
    const inTeam = await identityWithRole(b.url, token, b.orgUid, 'viewer', team);
    const inSibling = await identityWithRole(b.url, token, b.orgUid, 'viewer', sibling);
    assert.deepEqual(await ids(inTeam.token), ['npm:@babel:core', 'npm:left-pad', 'npm:team-only']);
    assert.deepEqual(await ids(inSibling.token), ['npm:@babel:core', 'npm:left-pad']);
    assert.deepEqual(await ids(token), ['npm:@babel:core', 'npm:left-pad', 'npm:team-only'], 'the organization owner sees below');
    assert.deepEqual((await get('/libraries/v1/artifacts/npm:team-only/versions', inSibling.token)).json.items ?? [], []);
  });

  it('refuses bad input on every parameter', async () => {
    const bad = async (path: string, field: string) => {
      const r = await get(path);
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(r.json.code, 3);
      const violations = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')?.fieldViolations ?? [];
      if (field !== '')
        assert.ok(
          violations.some((v: { field: string }) => v.field === field),
          `${path}: ${r.text}`,
        );
    };
    const eight = Array.from({ length: 9 }, () => 'ecosystems=ECOSYSTEM_JAVA').join('&');
    await bad('/libraries/v2/artifacts', 'ecosystems');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_UNSPECIFIED', 'ecosystems');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_COBOL', '');
    await bad(`/libraries/v2/artifacts?${eight}`, 'ecosystems');
    await bad(`/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&query=${'q'.repeat(300)}`, 'query');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&cudaVersion=cuda-latest', 'cuda_version');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&remediated=maybe', '');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&pageSize=-1', 'page_size');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&skip=-1', 'skip');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&orderBy=size', 'order_by');
    await bad('/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA&pageToken=forged.token', 'page_token');
    await bad('/libraries/v2/artifacts/count', 'ecosystems');
    await bad('/libraries/v2/artifacts/count?ecosystems=ECOSYSTEM_UNSPECIFIED', 'ecosystems');
    await bad(`/libraries/v2/artifacts/${'a'.repeat(600)}/versions`, 'artifact_id');
    await bad('/libraries/v2/artifacts/pypi%3Aa%20b/versions', 'artifact_id');
    await bad('/libraries/v2/artifacts/pypi:flask/versions?orderBy=version%20sideways', 'order_by');
    await bad('/libraries/v2/artifacts/pypi:flask/versions?pageSize=-5', 'page_size');
    await bad('/libraries/v2/artifacts/pypi:flask/versions?skip=-5', 'skip');
    await bad('/libraries/v2/artifacts/pypi:flask/versions?pageToken=nope', 'page_token');
    // A token from one artifact's versions is refused for another's.
    const t = (await get('/libraries/v2/artifacts/pypi:flask/versions?pageSize=1')).json.nextPageToken;
    await bad(`/libraries/v2/artifacts/pypi:six/versions?pageToken=${encodeURIComponent(t)}`, 'page_token');
    await bad('/libraries/v1/artifacts', 'ecosystems');
    await bad('/libraries/v1/artifacts?ecosystems=UNKNOWN', 'ecosystems');
    await bad('/libraries/v1/artifacts?ecosystems=PYTHON&cudaVersion=x', 'cuda_version');
    await bad('/libraries/v1/artifacts?ecosystems=PYTHON&pageSize=-1', 'page_size');
    await bad(`/libraries/v1/artifacts/${'a'.repeat(600)}/versions`, 'id');
    await bad('/libraries/v1/artifacts/count', 'ecosystems');
  });
});
