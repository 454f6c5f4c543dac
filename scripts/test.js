// The test command: type-check and build, then run every test file with
// Node's test runner. BERTH_TEST_PG=postgres://… runs the suite on PostgreSQL.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

const built = build();
if (built !== 0) process.exit(built);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.test.js') ? [p] : [];
  });
}
const only = process.argv.slice(2);
const tests = only.length > 0 ? only : files(join(root, 'dist', 'test')).sort();
const run = spawnSync(join(bin, 'node'), ['--test', '--test-concurrency=2', '--test-reporter=spec', ...tests], { cwd: root, stdio: 'inherit', env });
process.exit(run.status ?? 1);
