// `berth eol import` as an operator runs it against a running Berth's
// database: a re-import changes nothing, a changed file replaces that
// product's releases (and what ListEolTags says), malformed files are refused
// with the file and the JSON position and change nothing, even when other
// files of the same run are good; map/unmap change a repo's product.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { seedImage } from '../harness/registry-content.js';
import { eolCli, nodejsV1, pythonV0 } from './eol-fixtures.js';

describe('berth eol import', () => {
  let berth: Berth;
  let token: string;
  let dir: string;
  let repo: string;

  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  const state = async () => ({
    products: await sqlQuery(berth, 'select name, aliases, source_ref, source_sha, update_time from eol_products order by name'),
    releases: await sqlQuery(
      berth,
      'select product, name, position, release_date, eol_date, eol, lts, lts_from, latest_version from eol_releases order by product, name',
    ),
  });
  const stream = async (tag: string) => {
    const r = await rest(berth.url, 'GET', `/registry/v1/eoltags?uidp.childrenOf=${repo}&name=${tag}`, { token });
    assert.equal(r.status, 200, r.text);
    return r.json.items[0] as { mainPackageName: string; mainPackageVersion: { version: string; exists: boolean; eolDate: string } };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-eol-import-'));
    mkdirSync(join(dir, 'feed'));
    writeFileSync(join(dir, 'feed', 'nodejs.json'), JSON.stringify(nodejsV1()));
    writeFileSync(join(dir, 'feed', 'python.json'), JSON.stringify(pythonV0()));
    repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'node' } })).json.uid as string;
    const digest = await seedImage(berth, repo);
    for (const name of ['22.3.0', '16']) await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name, digest } });
  });

  it('imports a directory, and a re-import changes nothing', async () => {
    const first = await eolCli(berth, ['import', join(dir, 'feed'), '-o', 'json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { products: 2, releases: 10, added: 2, changed: 0, unchanged: 0 });
    const before = await state();
    assert.equal(before.releases.length, 10);
    const again = await eolCli(berth, ['import', join(dir, 'feed'), '-o', 'json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { products: 2, releases: 10, added: 0, changed: 0, unchanged: 2 });
    assert.deepEqual(await state(), before);
    assert.equal((await stream('22.3.0')).mainPackageVersion.version, '22');
  });

  it('replaces a product whose file changed', async () => {
    const changed = nodejsV1() as { result: { releases: Array<{ name: string; eolFrom: string }> } };
    changed.result.releases = changed.result.releases.filter((r) => r.name !== '22');
    changed.result.releases.find((r) => r.name === '16')!.eolFrom = '2023-09-12';
    writeFileSync(join(dir, 'feed', 'nodejs.json'), JSON.stringify(changed));
    const r = await eolCli(berth, ['import', join(dir, 'feed'), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { products: 2, releases: 9, added: 0, changed: 1, unchanged: 1 });
    assert.equal((await stream('22.3.0')).mainPackageVersion.exists, false);
    assert.equal((await stream('16')).mainPackageVersion.eolDate, '2023-09-12');
  });

  it('refuses malformed files naming the file and the JSON position, and changes nothing', async () => {
    const before = await state();
    const bad = mkdtempSync(join(tmpdir(), 'berth-eol-bad-'));
    const cases: Array<[string, string, RegExp]> = [
      ['syntax.json', '{"result": {\n  "name": "x",\n  "releases": [,]\n}}', /syntax\.json:3: invalid JSON/],
      [
        'date.json',
        JSON.stringify({ result: { name: 'ruby', releases: [{ name: '3.4', releaseDate: '2024-12-25', eolFrom: '2028-02-30' }] } }),
        /date\.json:0: result\.releases\[0\]\.eolFrom: not a date/,
      ],
      ['deep.json', `${'['.repeat(80)}${']'.repeat(80)}`, /deep\.json:0: .*nest/i],
      ['dup.json', JSON.stringify([{ cycle: '1' }, { cycle: '1' }]), /dup\.json:0: \[1\]: release "1" appears twice/],
      ['name.json', JSON.stringify({ result: { name: '../etc', releases: [] } }), /name\.json:0: result\.name: .* is not a name/],
      ['nul.json', '[{"cycle": "1\\u0000"}]', /nul\.json:0: NUL/],
      ['shape.json', JSON.stringify({ releases: [] }), /shape\.json:0: \(top level\): neither/],
    ];
    for (const [file, text, message] of cases) {
      const sub = join(bad, file.replace('.json', ''));
      mkdirSync(sub);
      // A good file beside the bad one: it is not written either.
      writeFileSync(join(sub, 'aaa-good.json'), JSON.stringify([{ cycle: '9', releaseDate: '2020-01-01', eol: '2030-01-01', latest: '9.9', lts: false }]));
      writeFileSync(join(sub, file), text);
      const r = await eolCli(berth, ['import', sub]);
      assert.equal(r.code, 1, `${file}: ${r.stdout}`);
      assert.match(r.stderr, message, file);
      assert.deepEqual(await state(), before, file);
    }
    const twice = await eolCli(berth, ['import', join(dir, 'feed', 'python.json'), join(dir, 'feed', 'python.json')]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /python\.json:0: product python was already read from/);
    const missing = await eolCli(berth, ['import', join(bad, 'nope')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file or directory/);
    assert.deepEqual(await state(), before);
  });

  it('maps and unmaps an image name', async () => {
    assert.equal((await stream('16')).mainPackageName, 'nodejs'); // by the alias "node"
    const map = await eolCli(berth, ['map', 'node', 'python']);
    assert.equal(map.code, 0, map.stderr);
    assert.equal((await stream('16')).mainPackageName, 'python');
    assert.equal((await stream('16')).mainPackageVersion.exists, false);
    const unmap = await eolCli(berth, ['unmap', 'node']);
    assert.equal(unmap.code, 0, unmap.stderr);
    assert.equal((await stream('16')).mainPackageName, 'nodejs');
    const bad = await eolCli(berth, ['map', 'Not An Image', 'python']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /is not an image name/);
  });
});
