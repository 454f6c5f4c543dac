// `berth images` takes repos and tags as people name them, as `berth iam`
// takes groups by name: ORG/REPO[:TAG] as the registry addresses them, a name
// within --parent (default: the organization), or a uid; and an unknown name
// is reported as what was looked for and where, not as an API field name.
// `tags create` on an existing tag says it moved it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { BerthCli } from '../harness/berth-cli.js';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { seedImage } from '../harness/registry-content.js';

describe('berth images names', () => {
  let berth: Berth;
  let cli: BerthCli;
  let org: string;
  let repo: string;
  let first: string;
  let second: string;

  before(async () => {
    berth = await startBerth();
    cli = new BerthCli();
    org = berth.orgName;
    await cli.ok('auth', 'login', '--credentials', berth.credentialsFile);
    const token = ownerToken(berth.credentialsFile);
    const made = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'web/nginx' } });
    assert.equal(made.status, 200, made.text);
    repo = made.json.uid as string;
    first = await seedImage(berth, repo, { architecture: 'amd64' });
    second = await seedImage(berth, repo, { architecture: 'arm64' });
  });
  after(async () => {
    cli?.dispose();
    await berth?.stop();
  });

  it('creates, lists, moves and deletes tags named ORG/REPO:TAG or by name with --repo', async () => {
    const created = JSON.parse(await cli.ok('images', 'tags', 'create', `${org}/web/nginx:1.27`, '--digest', first, '-o', 'json')) as {
      uid: string;
      digest: string;
    };
    assert.equal(created.digest, first);
    for (const r of [`${org}/web/nginx`, 'web/nginx', repo]) {
      const byName = r === 'web/nginx' ? ['--parent', org] : [];
      assert.equal((await cli.ok('images', 'tags', 'list', '--repo', r, ...byName, '-o', 'id')).trim(), created.uid, `--repo ${r}`);
    }
    const moved = await cli.run('images', 'tags', 'create', '1.27', '--repo', `${org}/web/nginx`, '--digest', second, '-o', 'id');
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(moved.stderr, `moved 1.27 from ${first} to ${second}\n`);
    assert.equal(moved.stdout.trim(), created.uid, 'the same tag, moved');
    const again = await cli.run('images', 'tags', 'create', `${org}/web/nginx:1.27`, '--digest', second);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /moved/, 'a tag already at the digest did not move');
    const fresh = await cli.run('images', 'tags', 'create', `${org}/web/nginx:new`, '--digest', first);
    assert.doesNotMatch(fresh.stderr, /moved/, 'a new tag did not move');

    assert.equal((await cli.ok('images', 'history', `${org}/web/nginx:1.27`, '-o', 'id')).trim(), `${first}\n${second}`);
    assert.equal((await cli.ok('images', 'history', created.uid, '-o', 'id')).trim(), `${first}\n${second}`, 'history by tag uid');

    const refused = await cli.run('images', 'tags', 'delete', `${org}/web/nginx`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /give the tag to delete as ORG\/REPO:TAG/);
    assert.match(await cli.ok('images', 'tags', 'delete', `${org}/web/nginx:1.27`), /^Deleted /);
    assert.match(await cli.ok('images', 'tags', 'delete', 'new', '--repo', `${org}/web/nginx`), /^Deleted /);
    assert.equal(await cli.ok('images', 'tags', 'list', '--repo', `${org}/web/nginx`, '-o', 'id'), '');
  });

  it('updates and deletes repos named ORG/REPO or by name in --parent', async () => {
    const team = JSON.parse(await cli.ok('iam', 'groups', 'create', 'team', '-o', 'json')) as { uid: string };
    await cli.ok('images', 'repos', 'create', 'app', '--parent', 'team');
    await cli.ok('images', 'repos', 'create', 'app');
    const inTeam = JSON.parse(await cli.ok('images', 'repos', 'update', 'app', '--parent', 'team', '--description', 'the team app', '-o', 'json')) as {
      uid: string;
      description: string;
    };
    assert.ok(inTeam.uid.startsWith(`${team.uid}/`), 'the app in --parent team');
    assert.equal(inTeam.description, 'the team app');
    const inOrg = JSON.parse(await cli.ok('images', 'repos', 'update', `${org}/app`, '--description', 'the org app', '-o', 'json')) as { uid: string };
    assert.equal(inOrg.uid.split('/').length, 2, 'ORG/app is the one directly in the organization');
    assert.equal(JSON.parse(await cli.ok('images', 'repos', 'update', 'app', '--description', 'again', '-o', 'json')).uid, inOrg.uid);
    assert.deepEqual(
      JSON.parse(await cli.ok('images', 'repos', 'list', '--parent', 'team', '-o', 'json')).map((r: { name: string }) => r.name),
      ['app'],
    );
    assert.equal((await cli.ok('images', 'repos', 'delete', 'app', '--parent', 'team', '-o', 'id')).trim(), inTeam.uid);
    assert.equal((await cli.ok('images', 'repos', 'delete', `${org}/app`, '-o', 'id')).trim(), inOrg.uid);
  });

  it('says which name it did not find, and where', async () => {
    for (const [args, message] of [
      [['images', 'tags', 'list', '--repo', 'nope'], new RegExp(`no repo named "nope" in ${org}`)],
      [['images', 'tags', 'list', '--repo', `${org}/nope`], new RegExp(`no repo named "nope" in ${org}`)],
      [['images', 'tags', 'list', '--repo', 'no-such-org/nginx'], /no organization named "no-such-org"/],
      [['images', 'repos', 'delete', 'nope', '--parent', 'no-such-group'], /no group named "no-such-group"/],
      [['images', 'tags', 'delete', 'v9', '--repo', `${org}/web/nginx`], new RegExp(`no tag named "v9" in ${org}/web/nginx`)],
      [['images', 'tags', 'create', 'latest', '--digest', first], /names no organization; give the image as ORG\/IMAGE:TAG/],
    ] as const) {
      const r = await cli.run(...args);
      assert.equal(r.code, 1, `berth ${args.join(' ')}: ${r.stdout}`);
      assert.match(r.stderr, message, `berth ${args.join(' ')}`);
      assert.doesNotMatch(r.stderr, /uidp\./, 'no API field names');
    }
  });
});
