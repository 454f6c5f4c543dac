// docs/errors.md cannot drift: its code table must match the one mapping the
// server uses, and it must document every PreconditionFailure type the code raises.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeName, httpStatusOf } from '../../src/core/error-codes.js';

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

  it('documents every PreconditionFailure type raised in src/', () => {
    const types = new Set<string>();
    for (const file of sources(join(ROOT, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/failedPrecondition\(\s*[A-Z_]+,\s*'([A-Z_]+)'/g)) types.add(m[1]);
    }
    assert.ok(types.size > 0);
    for (const t of types) assert.match(doc, new RegExp(`^\\| ${t} \\| 9 \\|`, 'm'), `${t} is documented`);
  });
});
