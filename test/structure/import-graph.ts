// Berth's import graph as the TypeScript compiler sees it. TypeScript 7 (the
// native compiler) has no JavaScript API, so this asks tsc itself:
// `--explainFiles --listFilesOnly` parses and resolves every import of the
// program without type checking, and says for each file which files import
// it ("Imported via '<specifier>' from file '<importer>'"): static imports,
// `import type`, re-exports and dynamic import() of a literal alike, resolved
// as the build resolves them (`.js` specifiers to `.ts` sources).
import { spawnSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface ImportEdge {
  /** Importer, relative to the repository root (`src/oci/registry-listener.ts`). */
  from: string;
  /** The resolved file imported, relative to the root; outside it for packages. */
  to: string;
  /** The specifier as written. */
  specifier: string;
}

export interface ImportGraph {
  /** Every file in the program, relative to the root. */
  files: string[];
  edges: ImportEdge[];
}

const IMPORTED_VIA = /^\s+Imported via (['"])(.+?)\1 from file '(.+?)'/;

export function importGraph(): ImportGraph {
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const run = spawnSync(tsc, ['-p', 'tsconfig.json', '--explainFiles', '--listFilesOnly'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`tsc --explainFiles failed (${run.status}): ${run.stderr || run.stdout.slice(0, 2000)}`);
  const rel = (p: string) => relative(ROOT, resolve(ROOT, p));
  const files: string[] = [];
  const edges: ImportEdge[] = [];
  let current: string | undefined;
  for (const line of run.stdout.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = rel(line.trim());
      files.push(current);
      continue;
    }
    const m = IMPORTED_VIA.exec(line);
    if (m && current !== undefined) edges.push({ from: rel(m[3] as string), to: current, specifier: m[2] as string });
  }
  return { files, edges };
}
