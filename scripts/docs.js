// Regenerates the parts of docs/ that come from the code: the error tables of
// docs/errors.md (from the error catalogue). Run after changing an errors.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from './build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (build() !== 0) process.exit(1);
const { loadCatalogue, renderErrorTables, withGeneratedTables } = await import(pathToFileURL(join(root, 'dist', 'src', 'core', 'error-docs.js')).href);
const file = join(root, 'docs', 'errors.md');
const before = readFileSync(file, 'utf8');
const after = withGeneratedTables(before, renderErrorTables(await loadCatalogue()));
if (after !== before) writeFileSync(file, after);
console.log(after === before ? 'docs/errors.md is up to date' : 'docs/errors.md regenerated');
