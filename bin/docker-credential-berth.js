#!/usr/bin/env node
// docker-credential-berth, the docker credential helper (`berth auth configure-docker`):
// runs on the Node.js version the project pins (node_modules/.bin/node), whatever
// `node` docker found first. Errors go to stdout, as the helper protocol wants.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = join(root, 'node_modules', '.bin', 'node');
const main = join(root, 'dist', 'src', 'cli', 'docker-credential-helper.js');

if (!existsSync(main)) {
  console.log('berth is not built yet: run `npm install` (or `npm run build`) in ' + root);
  process.exit(1);
}
if (process.versions.node.split('.')[0] !== '24' && existsSync(pinned)) {
  const r = spawnSync(pinned, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} else {
  await import(main);
}
