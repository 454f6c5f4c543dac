// The REST route table: templates with several variables, and precedence —
// a template with a literal suffix after a greedy {uid=**} wins over the bare
// {uid=**} one, whatever order the services were registered in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImagesService } from '../../src/gen/berth/registry/v2/images_pb.js';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { TagsService } from '../../src/gen/berth/registry/v2/tags_pb.js';
import { RegistryService } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { compareSpecificity, matchTemplate, parseTemplate } from '../../src/server/rest/path-template.js';
import { RouteTable, splitPath } from '../../src/server/rest/route-table.js';

const ORG = 'a'.repeat(40);
const REPO = `${ORG}/0123456789abcdef`;
const DIGEST = `sha256:${'d'.repeat(64)}`;

function matched(table: RouteTable, method: string, path: string) {
  const m = table.match(method, path);
  return m && { rpc: m.route.method.name, variables: m.variables };
}

describe('REST route matching', () => {
  for (const order of [
    [ReposService, ImagesService],
    [ImagesService, ReposService],
  ]) {
    it(`routes …/digests/{digest}/architectures|size|platforms to ImagesService (registered ${order[0].name} first)`, () => {
      const table = new RouteTable(order);
      for (const [suffix, rpc] of [
        ['architectures', 'GetArchitectures'],
        ['size', 'GetSize'],
        ['platforms', 'GetPlatforms'],
      ]) {
        assert.deepEqual(matched(table, 'GET', `/registry/v2/repos/${REPO}/digests/${DIGEST}/${suffix}`), {
          rpc,
          variables: { repo_uid: REPO, digest: DIGEST },
        });
      }
      // The beta alias and a percent-encoded ":" reach the same route.
      assert.deepEqual(matched(table, 'GET', `/registry/v2beta1/repos/${REPO}/digests/${DIGEST.replace(':', '%3A')}/size`), {
        rpc: 'GetSize',
        variables: { repo_uid: REPO, digest: DIGEST },
      });
      // The other repo routes are unchanged.
      assert.deepEqual(matched(table, 'GET', `/registry/v2/repos/${REPO}`), { rpc: 'GetRepo', variables: { uid: REPO } });
      assert.deepEqual(matched(table, 'GET', `/registry/v2/repos/${REPO}/readme`), { rpc: 'GetRepoReadme', variables: { uid: REPO } });
      // A path that does not have the full suffix shape falls to the greedy route.
      assert.deepEqual(matched(table, 'GET', `/registry/v2/repos/${REPO}/digests/${DIGEST}/other`), {
        rpc: 'GetRepo',
        variables: { uid: `${REPO}/digests/${DIGEST}/other` },
      });
      assert.deepEqual(matched(table, 'GET', `/registry/v2/repos/${ORG}/digests/x/size`), {
        rpc: 'GetSize',
        variables: { repo_uid: ORG, digest: 'x' },
      });
      // "**" takes one segment at least.
      assert.equal(matched(table, 'GET', '/registry/v2/repos/digests/x/size')?.rpc, 'GetRepo');
    });
  }

  it('keeps a literal suffix and a verb ahead of the greedy route for every method', () => {
    const table = new RouteTable([TagsService, RegistryService]);
    assert.deepEqual(matched(table, 'GET', `/registry/v1/tags/${REPO}/0123456789abcdef/history`), {
      rpc: 'ListTagHistory',
      variables: { parent_id: `${REPO}/0123456789abcdef` },
    });
    assert.equal(matched(table, 'GET', `/registry/v2/tags/${REPO}/0123456789abcdef`)?.rpc, 'GetTag');
    // Other methods on an Images path reach the repo routes (whose uid check then refuses the path).
    const images = new RouteTable([ReposService, ImagesService]);
    assert.deepEqual(images.allowedMethods(splitPath(`/registry/v2/repos/${REPO}/digests/${DIGEST}/size`).segments, undefined).sort(), [
      'DELETE',
      'GET',
      'PATCH',
      'POST',
    ]);
  });

  it('orders templates by verb, literals, no "**", then single-segment variables', () => {
    const sorted = ['/a/{x=**}', '/a/{x=**}:do', '/a/{x=**}/b/{y}/c', '/a/{x}/b', '/a/{x=**}/b', '/a/b/{y}']
      .map((t) => ({ t, parsed: parseTemplate(t) }))
      .sort((p, q) => compareSpecificity(p.parsed, q.parsed))
      .map((p) => p.t);
    assert.deepEqual(sorted, ['/a/{x=**}:do', '/a/{x=**}/b/{y}/c', '/a/{x}/b', '/a/b/{y}', '/a/{x=**}/b', '/a/{x=**}']);
  });

  it('matches several variables and refuses templates it cannot match unambiguously', () => {
    const t = parseTemplate('/v1/{a}/x/{b=**}/y/{c}:run');
    assert.deepEqual(matchTemplate(t, ['v1', 'A', 'x', 'B1', 'B2', 'y', 'C'], 'run'), { a: 'A', b: 'B1/B2', c: 'C' });
    assert.equal(matchTemplate(t, ['v1', 'A', 'x', 'B1', 'B2', 'y', 'C'], undefined), undefined);
    assert.equal(matchTemplate(t, ['v1', 'A', 'x', 'y', 'C'], 'run'), undefined);
    assert.equal(matchTemplate(t, ['v1', 'A', 'z', 'B', 'y', 'C'], 'run'), undefined);
    assert.deepEqual(matchTemplate(parseTemplate('/v1/things'), ['v1', 'things'], undefined), {});
    assert.equal(matchTemplate(parseTemplate('/v1/{a}'), ['v1', 'A', 'B'], undefined), undefined);
    assert.throws(() => parseTemplate('/v1/{a=**}/{b=**}'), /at most one \*\*/);
    assert.throws(() => parseTemplate('/v1/{a}/{a}'), /appears twice/);
    assert.throws(() => parseTemplate('/v1/{a=x/*}'), /unsupported/);
    assert.throws(() => parseTemplate('/v1/pre{a}'), /unsupported segment/);
  });
});
