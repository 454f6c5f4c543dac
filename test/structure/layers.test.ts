// Layers checked by the import graph: every import from a file under src/
// (src/gen aside) into another folder of src/ must be one the folder's row of
// LAYERS (test/structure/layers.ts) allows, and the packages of PACKAGE_LAYERS
// are imported only where it says.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, it } from 'node:test';
import { type ImportGraph, importGraph, ROOT } from './import-graph.js';
import { LAYERS, PACKAGE_LAYERS } from './layers.js';

const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [relative(ROOT, p)] : [];
  });
}

/** The folder under src/ a path is in, or undefined outside src/. */
function folderOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

describe('layers checked by the import graph', () => {
  let graph: ImportGraph;
  before(() => {
    graph = importGraph();
  });

  it('the compiler saw every source file and its imports', () => {
    const listed = new Set(graph.files);
    const missing = sources(SRC).filter((f) => !listed.has(f));
    assert.deepEqual(missing, []);
    const fromSrc = graph.edges.filter((e) => folderOf(e.from) !== undefined && folderOf(e.from) !== 'gen');
    // Far more imports than files: a change in tsc's output that hid them would show here.
    assert.ok(fromSrc.length > 2 * graph.files.filter((f) => folderOf(f) !== undefined).length, `only ${fromSrc.length} imports read`);
  });

  it('every folder under src/ has a row, and every row a folder', () => {
    const folders = readdirSync(SRC)
      .filter((n) => statSync(join(SRC, n)).isDirectory())
      .sort();
    assert.deepEqual(Object.keys(LAYERS).sort(), folders);
    for (const [folder, allowed] of Object.entries(LAYERS)) {
      for (const a of allowed) assert.ok(a in LAYERS && a !== folder, `${folder} allows ${a}`);
    }
  });

  it('every import between folders is one the table allows', () => {
    const offenders: string[] = [];
    for (const e of graph.edges) {
      const from = folderOf(e.from);
      const to = folderOf(e.to);
      if (from === undefined || from === 'gen' || to === undefined || to === from) continue;
      if (!(LAYERS[from] ?? []).includes(to)) offenders.push(`${e.from} imports ${e.to} (${from} may not import ${to})`);
    }
    assert.deepEqual(offenders, []);
  });

  it('the web framework and the database driver stay in their folders', () => {
    const offenders: string[] = [];
    for (const e of graph.edges) {
      const from = folderOf(e.from);
      if (from === undefined || e.specifier.startsWith('.')) continue;
      const parts = e.specifier.split('/');
      const pkg = (e.specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
      const allowed = PACKAGE_LAYERS[pkg];
      if (allowed && !allowed.includes(from)) offenders.push(`${e.from} imports ${e.specifier} (only ${allowed.join(', ')} may)`);
    }
    assert.deepEqual(offenders, []);
  });
});
