// Regenerates the parts of docs/ that come from the code: the route table of
// docs/api.md (from the protos' google.api.http annotations), the API event
// table of docs/event-types.md (from their events annotations) and the error
// tables of docs/errors.md (from the error catalogue), and docs/openapi.json (the
// OpenAPI document the server serves, from the protos). Tests fail when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from './build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (build() !== 0) process.exit(1);
const load = (path) => import(pathToFileURL(join(root, 'dist', 'src', path)).href);
const { loadCatalogue, renderErrorTables, withGenerated } = await load('core/error-docs.js');
const { renderRouteTable, ROUTES_BEGIN, ROUTES_END } = await load('server/rest/route-docs.js');
const { renderEventTable, EVENTS_BEGIN, EVENTS_END } = await load('server/event-type-docs.js');
const { SERVICES } = await load('server/services.js');
const { renderOpenApi, documentedServices } = await load('server/openapi/openapi-file.js');
const served = SERVICES.map((e) => e.service);

function update(name, rewrite) {
  const file = join(root, 'docs', name);
  const before = readFileSync(file, 'utf8');
  const after = rewrite(before);
  if (after !== before) writeFileSync(file, after);
  console.log(after === before ? `docs/${name} is up to date` : `docs/${name} regenerated`);
}

const errors = renderErrorTables(await loadCatalogue());
update('errors.md', (doc) => withGenerated(doc, errors));
update('api.md', (doc) => withGenerated(doc, renderRouteTable(served), ROUTES_BEGIN, ROUTES_END));
update('event-types.md', (doc) => withGenerated(doc, renderEventTable(served), EVENTS_BEGIN, EVENTS_END));

{
  const file = join(root, 'docs', 'openapi.json');
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    // first run
  }
  const after = renderOpenApi(documentedServices(SERVICES));
  if (after !== before) writeFileSync(file, after);
  console.log(after === before ? 'docs/openapi.json is up to date' : 'docs/openapi.json regenerated');
}
