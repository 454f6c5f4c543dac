// docs/openapi.json, which the server serves at /openapi.json, cannot drift:
// it must be what the generator makes of the served services (npm run docs),
// and it follows the transcoding the REST router serves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPENAPI_FILE } from '../../src/server/openapi/reference-routes.js';
import { documentedServices, renderOpenApi } from '../../src/server/openapi/openapi-file.js';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { iam } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { RouteTable } from '../../src/server/rest/route-table.js';
import { SERVICES } from '../../src/server/services.js';

describe('docs/openapi.json', () => {
  it('is the document the protos of the served services generate', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    assert.ok(committed === renderOpenApi(documentedServices(SERVICES)), 'docs/openapi.json is out of date: run npm run docs');
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the document is asserted on as loose JSON
type Json = any;
const doc: Json = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function operationAt(method: string, path: string): Json {
  const key = Object.keys(doc.paths).find((k) => shape(k) === shape(path));
  return key ? doc.paths[key][method.toLowerCase()] : undefined;
}

/** The services whose anonymous RPCs ask for a token under --feed-requires-auth. */
const tokenByFlag = new Set(documentedServices(SERVICES).flatMap((d) => (d.tokenByFlag ? [d.service] : [])));

describe('the OpenAPI document follows the transcoding rules', () => {
  it('binds each route as grpc-gateway does: path variables, the body, the rest as query parameters', () => {
    for (const route of new RouteTable(SERVICES.map((e) => e.service)).routes) {
      const path = `/${route.template.parts.map((p) => ('literal' in p ? p.literal : '{x}')).join('/')}${route.template.verb ? `:${route.template.verb}` : ''}`;
      const name = `${route.httpMethod} ${path} (${route.method.name})`;
      const op = operationAt(route.httpMethod, path);
      assert.ok(op, `${name} is in the document`);
      const params = (op.parameters ?? []) as Json[];
      const pathFields = route.template.parts.flatMap((p) => ('fieldPath' in p ? [p.fieldPath] : []));
      assert.equal(params.filter((p) => p.in === 'path').length, pathFields.length, `${name}: one path parameter per variable`);
      const query = params.filter((p) => p.in === 'query').map((p) => p.name as string);
      const jsonName = (field: string) => route.method.input.fields.find((f) => f.name === field.split('.')[0])?.jsonName ?? field;
      for (const f of pathFields) assert.ok(!query.includes(jsonName(f)), `${name}: ${f} is not also a query parameter`);
      if (route.body === '*') {
        assert.deepEqual(query, [], `${name}: a "*" body leaves nothing to the query`);
        const body = op.requestBody.content['application/json'].schema;
        if (!body.$ref) for (const f of pathFields) assert.ok(!(jsonName(f) in body.properties), `${name}: ${f} is set by the path, not the body`);
      } else if (route.body === '') {
        assert.equal(op.requestBody, undefined, `${name}: no body`);
      } else {
        assert.ok(op.requestBody, `${name}: the body is ${route.body}`);
        const bodyName = jsonName(route.body);
        assert.ok(!query.some((q) => q === bodyName || q.startsWith(`${bodyName}.`)), `${name}: ${route.body} is not in the query`);
      }
      const rule = hasOption(route.method, iam) ? getOption(route.method, iam) : undefined;
      const security = rule?.mode.case === 'enabled' ? [{ bearerAuth: [] }] : tokenByFlag.has(route.service) ? [{}, { bearerAuth: [] }] : [];
      assert.deepEqual(op.security, security, `${name}: security follows the iam annotation`);
      assert.equal(op.responses.default.$ref, '#/components/responses/Error', `${name}: errors are the AIP-193 body`);
    }
  });

  it('writes schemas in proto3 JSON: json names, int64 as strings, enums by name, well-known types, exclusive oneofs', () => {
    const s = doc.components.schemas;
    const list = s['berth.registry.v2.ListReposResponse'].properties;
    assert.deepEqual(Object.keys(list), ['repos', 'nextPageToken', 'totalCount', 'skipped']);
    assert.equal(list.totalCount.type, 'string');
    assert.equal(list.totalCount.format, 'int64');
    assert.equal(list.skipped.type, 'integer');
    assert.equal(s['berth.registry.v2.Repo'].properties.createTime.format, 'date-time');
    assert.equal(s['berth.registry.v2.Repo'].properties.uid.readOnly, true);
    const cap = s['berth.capabilities.v1.Capability'];
    assert.equal(cap.type, 'string');
    assert.ok(cap.enum.includes('CAP_REPO_LIST'));
    const claimMatch = s['berth.iam.v2.Identity.ClaimMatch'];
    assert.ok(claimMatch.dependentSchemas.issuer, 'issuer and issuerPattern exclude each other');
    assert.deepEqual(claimMatch.dependentSchemas.issuer.not.anyOf, [{ required: ['issuerPattern'] }]);
    const status = s['google.rpc.Status'].properties;
    assert.deepEqual(Object.keys(status), ['code', 'message', 'details']);
    const list2 = operationAt('GET', '/registry/v2/repos').parameters.map((p: Json) => p.name);
    assert.ok(list2.includes('uidp.childrenOf') && list2.includes('pageSize'), 'nested fields are dotted, in json names');
    const ids = operationAt('GET', '/registry/v2/repos').parameters.find((p: Json) => p.name === 'uidp.ids');
    assert.deepEqual([ids.schema.type, ids.explode], ['array', true], 'a repeated field is a repeated parameter');
  });
});
