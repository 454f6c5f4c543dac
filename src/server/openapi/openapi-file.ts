// docs/openapi.json's text, as `npm run docs` writes it and the server serves
// it: the document of the served services, stable key order, two-space indent.
// Build-time only (it runs buf for the protos' comments); the server reads the file.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { ServiceEntry } from '../services.js';
import { openApiDocument, type DocumentedService } from './openapi-document.js';
import { protoComments } from './proto-comments.js';

/** The package root, from dist/src/server/openapi/. */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

/** The package version (info.version). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The served services as the document sees them: a service whose guard asks
 * for a token when the operator turns --feed-requires-auth on is told so (the
 * guard options read only that flag).
 */
export function documentedServices(entries: readonly ServiceEntry[]): DocumentedService[] {
  const flagOn = { feedRequiresAuth: true } as ServiceDeps;
  return entries.map((e) => ({ service: e.service, tokenByFlag: e.guard?.(flagOn).requireToken === true }));
}

/** The protos as a FileDescriptorSet with source info (comments), from `buf build` in the package root. */
export function protoDescriptorSet(): Uint8Array {
  const buf = join(ROOT, 'node_modules', '.bin', 'buf');
  const r = spawnSync(buf, ['build', '--as-file-descriptor-set', '-o', '-#format=binpb'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`buf build failed: ${r.stderr.toString().slice(0, 2000)}`);
  return new Uint8Array(r.stdout);
}

export function renderOpenApi(services: readonly DocumentedService[], descriptorSet: Uint8Array = protoDescriptorSet()): string {
  return `${JSON.stringify(openApiDocument(services, packageVersion(), protoComments(descriptorSet)), null, 2)}\n`;
}
