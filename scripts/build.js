// The build every entry point uses (npm install, test, check, start, bench):
// tsc -b, after removing compiled files whose source is gone. tsc never deletes
// the output of a deleted or moved .ts file, and a stale migration or test
// left in dist/ would still be found and run. Then the web console
// (build-console.js), in its own process since Vite is asynchronous.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const OUTPUT = /\.(d\.ts|js|js\.map|d\.ts\.map)$/;

function prune(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p === join(dist, 'console')) continue; // the console's bundle, owned by build-console.js
    if (statSync(p).isDirectory()) {
      prune(p);
      if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
      continue;
    }
    if (!OUTPUT.test(name)) continue;
    const source = join(root, relative(dist, p)).replace(OUTPUT, '.ts');
    if (!existsSync(source)) rmSync(p);
  }
}

export function build() {
  prune(dist);
  const tsc = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-b'], { cwd: root, stdio: 'inherit' }).status ?? 1;
  if (tsc !== 0) return tsc;
  return spawnSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(build());
