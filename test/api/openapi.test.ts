// The OpenAPI document and the reference page, against a real server on port
// 0 (started in this process, so the test can walk the routes its Fastify
// registered): the served document is valid OpenAPI 3.1; it lists exactly the
// routes the listener serves (the REST router's table with its /v2beta1/
// aliases, and the plain routes) apart from the ones it names as not
// described; every documented route is answered by a handler, not the 404 of
// an unknown route; each documented example replays to its status and shape;
// and /docs renders in Chromium without a request to another origin.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/runtime/start-server.js';
import { undescribed } from '../../src/server/openapi/http-operations.js';
import { EXAMPLE_NAME, EXAMPLE_ORG, EXAMPLE_OWNER } from '../../src/server/openapi/operation-examples.js';
import { OPENAPI_FILE } from '../../src/server/openapi/reference-routes.js';
import { RouteTable } from '../../src/server/rest/route-table.js';
import { SERVICES } from '../../src/server/services.js';
import { rest } from '../harness/api-client.js';
import { CLI, dropDatabase, freshDatabase } from '../harness/berth-process.js';

const run = promisify(execFile);
// biome-ignore lint/suspicious/noExplicitAny: the document is asserted on as loose JSON
type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "/a/{x}/b:c" → "/a/{}/b:c": OpenAPI holds paths differing only in variable names to be one. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function operations(doc: Json): Array<{ method: string; path: string; op: Json }> {
  const out: Array<{ method: string; path: string; op: Json }> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) out.push({ method: method.toUpperCase(), path, op: item[method] });
  }
  return out;
}

/** The routes of the REST router's table, as method and path shape, with the /v2beta1/ alias of each /v2/ one. */
function restRoutes(): string[] {
  const out: string[] = [];
  for (const r of new RouteTable(SERVICES.map((e) => e.service)).routes) {
    const path = `/${r.template.parts.map((p) => ('literal' in p ? p.literal : '{}')).join('/')}${r.template.verb ? `:${r.template.verb}` : ''}`;
    out.push(`${r.httpMethod} ${path}`);
    if (path.split('/')[2] === 'v2') out.push(`${r.httpMethod} ${path.replace(/^(\/[^/]+\/)v2/, '$1v2beta1')}`);
  }
  return out;
}

describe('OpenAPI document and reference page', () => {
  let server: RunningServer;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let base: string;
  let token: string;
  let doc: Json;
  let org: string;
  let owner: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-openapi-'));
    databaseUrl = await freshDatabase();
    server = await startServer({ host: '127.0.0.1', port: 0, dataDir, databaseUrl, org: 'example.com', logger: pino({ level: 'silent' }) });
    base = server.listenUrl;
    const credentials = join(dataDir, 'admin-credentials.json');
    const creds = JSON.parse(readFileSync(credentials, 'utf8')) as { identity: string; organization: { uid: string } };
    [org, owner] = [creds.organization.uid, creds.identity];
    // Asynchronously: the server runs in this process, and a synchronous spawn would stop it answering.
    token = (await run(process.execPath, [CLI, 'auth', 'token', '--credentials', credentials, '--api', server.url])).stdout.trim();
    const res = await rest(base, 'GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = res.json;
  });

  after(async () => {
    await server?.close();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves docs/openapi.json, a valid OpenAPI 3.1 document', async () => {
    assert.deepEqual(doc, JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
    assert.equal(validator.version, '3.1');
  });

  it('describes every route the listener serves and nothing else', () => {
    const documented = new Set(operations(doc).map((o) => `${o.method} ${shape(o.path)}`));
    const rest = restRoutes();
    const prefixes = new Set(rest.map((r) => `/${r.split(' ')[1].split('/').slice(1, 3).join('/')}`));
    const plain: string[] = [];
    for (const { method, url } of server.apiRoutes) {
      if (/^\/[\w.]+\.[A-Z]\w*\/\w+$/.test(url)) continue; // gRPC, gRPC-Web and Connect: /<service>/<method>
      if (prefixes.has(url.replace(/\/\*$/, ''))) continue; // the REST router, checked through its table below
      if (method === 'HEAD' && server.apiRoutes.some((r) => r.method === 'GET' && r.url === url)) continue; // Fastify's own, for each GET
      if (undescribed(method, url)) continue;
      plain.push(`${method} ${url}`);
    }
    const served = new Set([...rest, ...plain]);
    assert.deepEqual(
      [...served].filter((r) => !documented.has(r)),
      [],
      'served but not in the document',
    );
    assert.deepEqual(
      [...documented].filter((r) => !served.has(r)),
      [],
      'in the document but not served',
    );
  });

  it('has a handler behind every documented route', async () => {
    const ops = operations(doc);
    const missing: string[] = [];
    for (let i = 0; i < ops.length; i += 16) {
      await Promise.all(
        ops.slice(i, i + 16).map(async ({ method, path }) => {
          // Percent-encoded, as OpenAPI clients send a path parameter: a uid's "/" then fits a one-segment variable too.
          const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(`${org}/0123456789abcdef`));
          const res = await rest(base, method, url, method === 'GET' || method === 'DELETE' ? {} : { rawBody: '{}' });
          const routeMissing = res.status === 404 && res.json?.details?.some((d: Json) => d.resourceType === 'route');
          if (routeMissing || res.status === 501) missing.push(`${method} ${path} → ${res.status}`);
        }),
      );
    }
    assert.deepEqual(missing, []);
  });

  it('replays each documented example to its status and shape', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'https://berth.invalid/openapi', components: doc.components });
    const check = (schema: Json, value: unknown, what: string) => {
      const s = schema.$ref ? { $ref: `https://berth.invalid/openapi${schema.$ref}` } : schema;
      const validate = ajv.compile(s);
      assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)?.slice(0, 1500)}`);
    };
    const real = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll(EXAMPLE_ORG, org).replaceAll(EXAMPLE_OWNER, owner));
    let replayed = 0;
    const services = new Set<string>();
    for (const { method, path, op } of operations(doc)) {
      const responses = Object.entries(op.responses as Record<string, Json>).filter(([, r]) => r.content?.['application/json']?.examples?.[EXAMPLE_NAME]);
      if (responses.length === 0) continue;
      const [status, response] = responses[0];
      const params = (op.parameters ?? []) as Json[];
      const value = (p: Json) => real(p.examples?.[EXAMPLE_NAME]?.value) as string;
      const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(value(params.find((p) => p.in === 'path' && p.name === name))));
      const query = new URLSearchParams(params.filter((p) => p.in === 'query' && p.examples).map((p): [string, string] => [p.name, value(p)]));
      const body = op.requestBody?.content['application/json'].examples?.[EXAMPLE_NAME]?.value;
      const res = await rest(base, method, `${url}${query.size > 0 ? `?${query}` : ''}`, { token, body: body === undefined ? undefined : real(body) });
      const what = `${op.operationId} (${method} ${url})`;
      assert.equal(res.status, Number(status), `${what}: ${res.text.slice(0, 500)}`);
      const schema = response.content['application/json'].schema;
      const example = response.content['application/json'].examples[EXAMPLE_NAME].value;
      check(schema, example, `${what}: the example`);
      check(schema, res.json, `${what}: the answer`);
      assertSameShape(example, res.json, what);
      replayed++;
      services.add(op.tags[0]);
    }
    const documentedServices = SERVICES.map((e) => e.service.typeName).filter((s) => !services.has(s));
    assert.deepEqual(documentedServices, [], 'services without an example');
    assert.ok(replayed >= SERVICES.length);
  });

  it('renders /docs from this origin only', async () => {
    const page = await rest(base, 'GET', '/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const sources = [...page.text.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(sources.length > 0);
    for (const s of sources) assert.ok(s.startsWith('data:') || new URL(s, `${base}/docs`).origin === base, `${s} is of another origin`);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const tab = await browser.newPage();
      const requested: string[] = [];
      const problems: string[] = [];
      tab.on('request', (r) => requested.push(r.url()));
      tab.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      tab.on('pageerror', (e) => problems.push(String(e)));
      await tab.goto(`${base}/docs`);
      await tab
        .getByRole('heading', { name: /Berth API/ })
        .first()
        .waitFor({ timeout: 60_000 });
      await tab.waitForLoadState('networkidle');
      assert.ok(
        requested.some((u) => u.endsWith('/openapi.json')),
        'the page loaded the document',
      );
      // A blob: URL (Redoc's search worker) has the origin of the page that made it.
      const origin = (u: string) => (u.startsWith('data:') ? base : new URL(u.replace(/^blob:/, '')).origin);
      assert.deepEqual(
        requested.filter((u) => origin(u) !== base),
        [],
      );
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  });
});

/** Every key of the example is in the answer with a value of the same JSON type, recursively (an array by its first element). */
function assertSameShape(example: unknown, actual: unknown, where: string): void {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  assert.equal(kind(actual), kind(example), `${where}: ${kind(example)} expected`);
  if (Array.isArray(example)) {
    if (example.length > 0 && (actual as unknown[]).length > 0) assertSameShape(example[0], (actual as unknown[])[0], `${where}[0]`);
  } else if (example && typeof example === 'object') {
    for (const [k, v] of Object.entries(example)) {
      assert.ok(Object.hasOwn(actual as object, k), `${where}: ${k} is missing`);
      assertSameShape(v, (actual as Record<string, unknown>)[k], `${where}.${k}`);
    }
  }
}
