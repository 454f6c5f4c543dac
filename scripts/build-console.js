// Builds the web console (web/, Vite + Preact) into dist/console, which
// `berth serve` serves at / on the API listener. Type-checks web/ first
// (strict). Skipped when dist/console is newer than every file of web/, so
// repeated builds (test, check) cost nothing.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const out = join(root, 'dist', 'console');
const stamp = join(out, '.built');

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

export async function buildConsole() {
  // web/, this script and the lock file (a new Vite or Preact) decide whether the bundle is stale.
  const sources = Math.max(newest(web), statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(join(root, 'package-lock.json')).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return 0;
  const tsc = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(web, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (tsc.status !== 0) return tsc.status ?? 1;
  const { build } = await import('vite');
  const { default: preact } = await import('@preact/preset-vite');
  await build({
    root: web,
    base: '/',
    configFile: false,
    logLevel: 'warn',
    plugins: [preact()],
    build: {
      outDir: out,
      emptyOutDir: true,
      // No data: URIs and no inline scripts, so the Content-Security-Policy can stay 'self' only.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      sourcemap: false,
      reportCompressedSize: false,
    },
  });
  writeFileSync(stamp, '');
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildConsole().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
