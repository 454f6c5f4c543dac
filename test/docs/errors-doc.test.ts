// docs/errors.md cannot drift: its code table must match the one mapping the
// server uses, its error tables must be what the error catalogue generates,
// and no error can be raised without being in the catalogue.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { codeName, httpStatusOf } from '../../src/core/error-codes.js';
import { loadCatalogue, renderErrorTables, withGenerated } from '../../src/core/error-docs.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'gen' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('docs/errors.md', () => {
  it('lists every code with its reason and HTTP status', () => {
    for (let code = 1; code <= 16; code++) {
      const row = new RegExp(`^\\| ${code} \\| ${codeName(code)} \\| ${httpStatusOf(code)} \\|`, 'm');
      assert.match(doc, row, `code ${code} (${codeName(code)} → ${httpStatusOf(code)}) is documented`);
    }
  });

  it('holds exactly the tables the error catalogue generates (npm run docs)', async () => {
    const rows = await loadCatalogue();
    assert.ok(rows.length > 30);
    const names = rows.map((r) => `${r.domain}/${r.name}`);
    assert.equal(new Set(names).size, names.length, 'each named error is declared once');
    assert.equal(withGenerated(doc, renderErrorTables(rows)), doc, 'docs/errors.md is out of date: run npm run docs');
  });

  it('raises errors only through named factories declared in the catalogue', () => {
    const offenders: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      const rel = relative(join(ROOT, 'src'), file);
      const text = readFileSync(file, 'utf8');
      // Only modules that declare errors in the catalogue (and the base factories) may build them.
      if (text.includes('defineError(') || rel === 'core/api-error.ts') continue;
      text.split('\n').forEach((line, i) => {
        if (
          /\b(invalidArgument|notFound|alreadyExists|failedPrecondition|permissionDenied|unauthenticated|unimplemented|unavailable|internalError)\(/.test(
            line,
          ) ||
          /\b(throw|return)\s+new ConnectError\(/.test(line)
        ) {
          offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    assert.deepEqual(offenders, []);
  });
});
