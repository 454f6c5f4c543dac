// Runs after `npm install`: builds once so `npm start` and the berth command
// work right after install, with the Node.js the project pins.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
if (!existsSync(join(root, 'node_modules', '.bin', 'node'))) {
  console.error('postinstall: node_modules/.bin/node (the pinned Node.js 24) is missing; run npm install again');
  process.exit(1);
}
if (existsSync(tsc)) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('postinstall: the TypeScript build failed');
    process.exit(1);
  }
} else {
  console.warn('postinstall: TypeScript is not installed (dev dependencies omitted); run `npm run build` later');
}
