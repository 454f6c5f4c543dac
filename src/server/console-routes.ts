// The web console (web/, built into dist/console by scripts/build-console.js):
// its index at / and at every client route under /ui/, its hashed assets under
// /assets/. The files are read once at start into a table, so no request path
// ever reaches the filesystem. Every other path keeps the API's structured 404.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';

/** Where the build puts the console, relative to this compiled file (dist/src/server). */
export const CONSOLE_DIR = join(import.meta.dirname, '..', '..', 'console');

// Scripts, styles, images and fonts only from this origin; no inline code, no framing, API calls to the same origin.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

function readTree(dir: string, base = dir, out = new Map<string, StaticFile>()): Map<string, StaticFile> {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) readTree(p, base, out);
    else {
      const path = `/${relative(base, p).split(sep).join('/')}`;
      // Vite names assets by content hash: they never change under one name.
      out.set(path, { body: readFileSync(p), type: TYPES[extname(p)] ?? 'application/octet-stream', immutable: path.startsWith('/assets/') });
    }
  }
  return out;
}

function send(reply: FastifyReply, file: StaticFile) {
  return reply
    .header('content-type', file.type)
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('x-frame-options', 'DENY')
    .send(file.body);
}

export async function consoleRoutes(app: FastifyInstance, opts: { dir?: string; logger: Logger }) {
  const dir = opts.dir ?? CONSOLE_DIR;
  if (!existsSync(join(dir, 'index.html'))) {
    opts.logger.warn({ dir }, 'the web console is not built (npm run build); / answers 404');
    return;
  }
  const files = readTree(dir);
  const index = files.get('/index.html')!;
  app.get('/', (_req, reply) => send(reply, index));
  // Client routes: the console decides what /ui/… shows; the API has no /ui prefix, so no API 404 is swallowed.
  app.get('/ui', (_req, reply) => send(reply, index));
  app.get('/ui/*', (_req, reply) => send(reply, index));
  for (const [path, file] of files) {
    if (path === '/index.html') continue;
    app.get(path, (_req, reply) => send(reply, file));
  }
}
