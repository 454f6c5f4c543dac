// Where `berth advisories import` writes and who sees it: by default the
// organization first start made, so its owner lists what was imported
// (`berth advisories list`) and the public feed serves it; --group (a name
// or a uid) writes elsewhere, where the feed never looks. No group is
// created, and --dry-run names the group the real run then uses.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { generateAdvisories, type GeneratedDocument, renderYaml } from '../harness/advisory-generator.js';
import { rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { berthCli, cliEnv, type Run } from '../harness/cli-run.js';
import { sqlQuery } from '../harness/database.js';

interface Summary {
  group: string;
  groupName: string;
  dryRun: boolean;
  added: number;
}

describe('berth advisories import: the group it writes into', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  const root = mkdtempSync(join(tmpdir(), 'berth-import-group-'));
  const configDir = join(root, 'config');
  const env = cliEnv(configDir);
  const cli = (...args: string[]): Promise<Run> => berthCli(args, { env });
  const where = () => (berth.databaseUrl ? ['--database', berth.databaseUrl] : ['--data', berth.dataDir]);
  const importRun = (...args: string[]) => cli('advisories', 'import', ...args, ...where());
  async function importJson(...args: string[]): Promise<Summary> {
    const r = await importRun(...args, '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { imports: Summary[] }).imports[0];
  }
  function feedDir(name: string, seed: number): { dir: string; docs: GeneratedDocument[] } {
    const docs = generateAdvisories(seed, { documents: 2, advisoriesPerDocument: 2 }).documents.map((d, i) => ({ ...d, origin: `${name}-${i}` }));
    const dir = join(root, name);
    mkdirSync(dir);
    for (const d of docs) writeFileSync(join(dir, `${d.origin}.advisories.yaml`), renderYaml(d));
    return { dir, docs };
  }
  const documents = async (origin: string) => {
    const r = await rest(berth.url, 'GET', `/advisory/v2/documents?id=${origin}`);
    assert.equal(r.status, 200, r.text);
    return ((r.json.documents ?? []) as { id: string }[]).map((d) => d.id);
  };
  const listed = async (...args: string[]) => {
    const r = await cli('advisories', 'list', '-o', 'id', ...args);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.split('\n').filter((l) => l !== '');
  };

  before(async () => {
    const login = await cli('auth', 'login', '--credentials', berth.credentialsFile);
    assert.equal(login.code, 0, login.stderr);
  });

  it('imports into the first-start organization by default: its owner lists the advisories and the feed serves them', async () => {
    const feed = feedDir('org', 11);
    const dry = await importRun(feed.dir, '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^yaml \(dry run, nothing written\): /m);
    assert.match(dry.stdout, new RegExp(`^into group [^ ]+ \\(${berth.orgUid}\\)$`, 'm'));
    const r = await importJson(feed.dir);
    assert.equal(r.group, berth.orgUid, 'the group the dry run named');
    assert.ok(r.added > 0);
    assert.equal(Number((await sqlQuery(berth, "select count(*) as n from groups where name = 'advisory-feed'"))[0].n), 0, 'no group created');

    const stored = await sqlQuery(berth, 'select uid from advisories where parent_uid = $1 order by uid', [berth.orgUid]);
    assert.equal(stored.length, r.added);
    assert.deepEqual((await listed()).sort(), stored.map((a) => a.uid as string).sort(), 'the owner lists every imported advisory');
    assert.deepEqual(await documents(feed.docs[0].origin), [feed.docs[0].origin], 'the public feed serves them');
  });

  it('imports into --group named by name or uid, listed by the owner, kept off the public feed', async () => {
    const team = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'security-team' } });
    assert.equal(team.status, 200, team.text);
    const teamUid = team.json.uid as string;
    const feed = feedDir('team', 12);
    const dry = await importJson(feed.dir, '--group', 'security-team', '--dry-run');
    assert.deepEqual([dry.group, dry.groupName, dry.dryRun], [teamUid, 'security-team', true]);
    const r = await importJson(feed.dir, '--group', 'security-team');
    assert.equal(r.group, teamUid);
    assert.ok(r.added > 0);
    const again = await importJson(feed.dir, '--group', teamUid, '--force');
    assert.deepEqual([again.group, again.added], [teamUid, 0], 'the same group by its uid');

    assert.equal((await listed('--group', 'security-team')).length, r.added);
    assert.deepEqual(await documents(feed.docs[0].origin), [], 'not on the public feed');
  });

  it('leaves what an older version imported into "advisory-feed" there; a default import reads the same files again into the organization', async () => {
    const legacy = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'advisory-feed' } });
    assert.equal(legacy.status, 200, legacy.text);
    const legacyUid = legacy.json.uid as string;
    const feed = feedDir('legacy', 14);
    const old = await importJson(feed.dir, '--group', legacyUid);
    assert.equal(old.group, legacyUid);
    const origin = feed.docs[1].origin;
    assert.deepEqual(await documents(origin), [], 'the feed serves the organization only');

    const moved = await importJson(feed.dir);
    assert.deepEqual([moved.group, moved.added], [berth.orgUid, old.added], 'every file read again (the group is part of its hash)');
    const left = await sqlQuery(berth, 'select count(*) as n from advisories where parent_uid = $1', [legacyUid]);
    assert.equal(Number(left[0].n), old.added, 'the old rows are kept');
    assert.deepEqual(await documents(origin), [origin]);
  });

  it('refuses a group name that matches no group or several, naming the candidates', async () => {
    const feed = feedDir('nowhere', 13);
    const none = await importRun(feed.dir, '--group', 'no-such-team');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--group: no group named "no-such-team"/);
    const uids: string[] = [];
    for (const parent of [berth.orgUid, (await sqlQuery(berth, "select uid from groups where name = 'security-team'"))[0].uid as string]) {
      const g = await rest(berth.url, 'POST', `/iam/v2/groups/${parent}`, { token, body: { name: 'twin' } });
      assert.equal(g.status, 200, g.text);
      uids.push(g.json.uid as string);
    }
    const twins = await importRun(feed.dir, '--group', 'twin');
    assert.equal(twins.code, 1);
    assert.match(twins.stderr, /--group: 2 groups are named "twin"; give the uid of one of them/);
    for (const uid of uids) assert.ok(twins.stderr.includes(uid), `lists ${uid}`);
    assert.equal(Number((await sqlQuery(berth, "select count(*) as n from advisories where origin like 'nowhere-%'"))[0].n), 0);
  });
});
