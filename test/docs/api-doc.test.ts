// docs/api.md's route table cannot drift: it must be what the protos'
// annotations of the served services generate (npm run docs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withGenerated } from '../../src/core/error-docs.js';
import { renderRouteTable, ROUTES_BEGIN, ROUTES_END } from '../../src/server/rest/route-docs.js';
import { SERVICES } from '../../src/server/services.js';

/** The descriptors of the services the server serves. */
const SERVED = SERVICES.map((e) => e.service);

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');

describe('docs/api.md', () => {
  it('lists exactly the routes of the served services', () => {
    const table = renderRouteTable(SERVED);
    assert.ok(doc.includes(ROUTES_BEGIN), 'docs/api.md has the generated route table');
    assert.equal(withGenerated(doc, table, ROUTES_BEGIN, ROUTES_END), doc, 'docs/api.md is out of date: run npm run docs');
    for (const s of SERVED) for (const m of s.methods) assert.ok(table.includes(`| ${m.name} |`), `${s.typeName}.${m.name} is listed`);
  });
});
