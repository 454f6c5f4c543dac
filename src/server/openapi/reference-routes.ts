// GET /openapi.json (docs/openapi.json, which `npm run docs` generates from the
// protos) and GET /docs, the API reference rendered by Redoc's standalone
// bundle, served from node_modules by this server: the page loads nothing from
// another origin, and its Content-Security-Policy says so to the browser.
// Public, as the protos are: the document names routes, never data.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The package root, from dist/src/server/openapi/. */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
export const OPENAPI_FILE = join(ROOT, 'docs', 'openapi.json');
const REDOC_FILE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

// Redoc styles itself with inline <style> elements and runs its search in a blob: worker.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Relative URLs, so the page also works behind a proxy that serves Berth under a path prefix.
// Long enums (capabilities) folded and payload samples kept shallow: the page renders every operation at once.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Berth API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="openapi.json" hide-hostname="true" max-displayed-enum-values="12" generated-payload-samples-max-depth="4"></redoc>
<script src="docs/redoc.standalone.js"></script>
</body>
</html>
`;

// The bundle's one request elsewhere: the sidebar's "API docs by Redocly" logo, from Redocly's CDN.
// An image that fails to load is hidden by Redoc itself, so it gets an empty data: URL instead.
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/** Reads a file once, on first use: a server that never serves the reference never reads it. */
function cached(path: string, rewrite: (b: Buffer) => Buffer = (b) => b): () => Promise<Buffer> {
  let pending: Promise<Buffer> | undefined;
  return () => {
    pending ??= readFile(path).then(rewrite, (err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

export async function referenceRoutes(app: FastifyInstance): Promise<void> {
  const document = cached(OPENAPI_FILE);
  const redoc = cached(REDOC_FILE, (b) => Buffer.from(b.toString('utf8').replaceAll(REDOC_CDN_LOGO, 'data:,')));
  const common = (reply: FastifyReply, type: string) => reply.header('content-type', type).header('x-content-type-options', 'nosniff');
  app.get('/openapi.json', async (_req, reply) =>
    common(reply, 'application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await document()),
  );
  app.get('/docs', async (_req, reply) =>
    common(reply, 'text/html; charset=utf-8').header('content-security-policy', CSP).header('cache-control', 'no-cache').send(PAGE),
  );
  app.get('/docs/redoc.standalone.js', async (_req, reply) =>
    common(reply, 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await redoc()),
  );
}
