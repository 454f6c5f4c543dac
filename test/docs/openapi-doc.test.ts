// docs/openapi.json, which the server serves at /openapi.json, cannot drift:
// it must be what the generator makes of the served services (npm run docs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPENAPI_FILE } from '../../src/server/openapi/reference-routes.js';
import { documentedServices, renderOpenApi } from '../../src/server/openapi/openapi-file.js';
import { SERVICES } from '../../src/server/services.js';

describe('docs/openapi.json', () => {
  it('is the document the protos of the served services generate', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    assert.ok(committed === renderOpenApi(documentedServices(SERVICES)), 'docs/openapi.json is out of date: run npm run docs');
  });
});
