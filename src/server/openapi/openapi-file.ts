// docs/openapi.json's text, as `npm run docs` writes it and the server serves
// it: the document of the served services, stable key order, two-space indent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { ServiceEntry } from '../services.js';
import { openApiDocument, type DocumentedService } from './openapi-document.js';

/** The package version (info.version). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
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

export function renderOpenApi(services: readonly DocumentedService[]): string {
  return `${JSON.stringify(openApiDocument(services, packageVersion()), null, 2)}\n`;
}
