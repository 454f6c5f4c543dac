// docs/architecture.md prints the table of layers; it must be the one the
// import-graph test enforces (test/structure/layers.ts), row for row.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LAYERS } from '../structure/layers.js';

const DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'architecture.md');

/** Folder → what it may import, from the doc's rows `| \`src/<folder>/\` | … | \`a\`, \`b\` |`. */
function printedLayers(markdown: string): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`src\/([a-z-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    if (folder === undefined || cells.length !== 5) continue;
    assert.ok(!(folder in rows), `src/${folder}/ is printed twice`);
    const may = cells[3] as string;
    rows[folder] = may === '—' ? [] : may.split(',').map((m) => m.trim().replace(/^`(.*)`$/, '$1'));
  }
  return rows;
}

describe('docs/architecture.md', () => {
  it('prints the table of layers the import graph is checked against', () => {
    const printed = printedLayers(readFileSync(DOC, 'utf8'));
    const expected = Object.fromEntries(Object.entries(LAYERS).map(([folder, may]) => [folder, [...may]]));
    assert.deepEqual(printed, expected);
  });
});
