// docs/errors.md's tables, rendered from the error catalogue. The catalogue
// fills as modules load, so every errors module is loaded first: each file
// named errors.js or *-errors.js under src/, found the way migrations are.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { catalogue, type CatalogueRow } from './error-catalogue.js';

const SOURCE_ROOT = join(import.meta.dirname, '..');
export const BEGIN = '<!-- generated from the error catalogue (npm run docs): begin -->';
export const END = '<!-- generated from the error catalogue: end -->';

function errorModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'gen' ? [] : errorModules(p);
    return /(^|-)errors\.js$/.test(e.name) ? [p] : [];
  });
}

export async function loadCatalogue(): Promise<CatalogueRow[]> {
  for (const file of errorModules(SOURCE_ROOT)) await import(pathToFileURL(file).href);
  const rows = catalogue();
  const domainOrder = (d: string) => (d === 'any' ? '' : d);
  return rows.sort((a, b) => domainOrder(a.domain).localeCompare(domainOrder(b.domain)) || a.code - b.code || a.name.localeCompare(b.name));
}

const cell = (s: string) => s.replaceAll('|', '\\|');

export function renderErrorTables(rows: readonly CatalogueRow[]): string {
  const out = [BEGIN, '', '## Every error, by domain', '', '"any" errors come from every service, with that service\'s domain.', ''];
  out.push('| domain | error | code | reason | HTTP | detail | when |', '|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const detail = r.type ? `${r.detail} \`${r.type}\`` : r.detail;
    out.push(`| ${r.domain} | ${r.name} | ${r.code} | ${r.reason} | ${r.httpStatus} | ${detail} | ${cell(r.when)} |`);
  }
  out.push('', '## PreconditionFailure types', '', '| type | code | when |', '|---|---|---|');
  for (const r of rows.filter((x) => x.type)) out.push(`| ${r.type} | ${r.code} | ${cell(r.when)} |`);
  out.push('', END);
  return out.join('\n');
}

/** The document with its generated part (between `begin` and `end`) replaced. */
export function withGenerated(doc: string, generated: string, begin = BEGIN, end = END): string {
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end);
  if (start < 0 || stop < start) return `${doc.trimEnd()}\n\n${generated}\n`;
  return `${doc.slice(0, start)}${generated}${doc.slice(stop + end.length)}`;
}
