// Every registry route declares the action it needs (pull, push, delete or
// none), and the dispatcher authorizes it before the route runs. The type
// makes the field required; this checks the table the listener builds at
// runtime too, and pins which action each method of each path needs, so a
// route moved to a weaker action fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RegistryContext } from '../../src/oci/registry-context.js';
import { OciRouteTable, routeProblem, type OciRoute } from '../../src/oci/route-table.js';
import { REGISTRY_ROUTES } from '../../src/oci/routes.js';

// Route factories read only these at build time; no handler runs here.
const ctx = { runtime: { store: { db: undefined } }, config: { historySegment: '_berth' } } as unknown as RegistryContext;
const routes: OciRoute[] = REGISTRY_ROUTES.map((make) => make(ctx));

const NAME = 'example.com/tools/app';
const DIGEST = `sha256:${'a'.repeat(64)}`;
/** What each method of each registry path needs. */
const EXPECTED: Array<[method: string, path: string, action: string]> = [
  ['GET', `/v2/${NAME}/manifests/v1`, 'pull'],
  ['HEAD', `/v2/${NAME}/manifests/${DIGEST}`, 'pull'],
  ['PUT', `/v2/${NAME}/manifests/v1`, 'push'],
  ['DELETE', `/v2/${NAME}/manifests/${DIGEST}`, 'delete'],
  ['GET', `/v2/${NAME}/blobs/${DIGEST}`, 'pull'],
  ['HEAD', `/v2/${NAME}/blobs/${DIGEST}`, 'pull'],
  ['DELETE', `/v2/${NAME}/blobs/${DIGEST}`, 'delete'],
  ['POST', `/v2/${NAME}/blobs/uploads/`, 'push'],
  ['GET', `/v2/${NAME}/blobs/uploads/abc`, 'push'],
  ['PATCH', `/v2/${NAME}/blobs/uploads/abc`, 'push'],
  ['PUT', `/v2/${NAME}/blobs/uploads/abc`, 'push'],
  ['DELETE', `/v2/${NAME}/blobs/uploads/abc`, 'push'],
  ['GET', `/v2/${NAME}/tags/list`, 'pull'],
  ['GET', `/v2/${NAME}/referrers/${DIGEST}`, 'pull'],
  ['GET', `/v2/${NAME}/_berth/history/v1`, 'pull'],
  ['HEAD', `/v2/${NAME}/_berth/history/v1`, 'pull'],
];

describe('registry route actions', () => {
  it('every route in the table declares an action, and a repository action has a name to check it on', () => {
    assert.ok(routes.length >= 9, `only ${routes.length} routes`);
    assert.deepEqual(
      routes.map((r) => routeProblem(r)).filter((p) => p !== undefined),
      [],
    );
    const table = new OciRouteTable();
    for (const r of routes) table.add(r);
    assert.equal(table.list().length, routes.length);
  });

  it('each method of each path needs the expected action', () => {
    const table = new OciRouteTable();
    for (const r of routes) table.add(r);
    const got = EXPECTED.map(([method, path]) => {
      const found = table.match(method, path);
      return [method, path, found && 'route' in found ? found.route.action : 'no route'];
    });
    assert.deepEqual(got, EXPECTED);
    // Every route is reached by some row: a new route gets its row here.
    const reached = new Set(EXPECTED.map(([m, p]) => (table.match(m, p) as { route: OciRoute }).route));
    assert.deepEqual(
      routes.filter((r) => !reached.has(r)).map((r) => r.name),
      [],
    );
  });

  it('a route without an action, or a repository action without a name group, does not go in the table', () => {
    const base = { name: 'bad', template: '/v2/x', methods: ['GET'] as const, path: /^\/v2\/x$/, handle: async () => undefined };
    const table = new OciRouteTable();
    assert.throws(() => table.add(base as unknown as OciRoute), /declare its action/);
    assert.throws(() => table.add({ ...base, action: 'pull' } as OciRoute), /needs a name group/);
    table.add({ ...base, action: 'none' });
  });
});
