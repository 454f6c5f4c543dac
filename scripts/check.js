// Every gate but the behaviour tests: proto lint, regenerate-and-diff of
// src/gen (Berth's protos and their deployed-names alias), the strict type check (build), lint and format (Biome), and the
// structure and docs drift tests. `npm run check && npm test` is the full set.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

function step(name, cmd, args) {
  process.stdout.write(`check: ${name}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`check: ${name} failed`);
    process.exit(r.status ?? 1);
  }
}

step('buf lint', join(bin, 'buf'), ['lint']);
step('buf generate', join(bin, 'buf'), ['generate']);
step('generate the deployed-names alias', process.execPath, [join(root, 'scripts', 'generate-alias.js')]);
step('generated code is committed', 'git', ['diff', '--exit-code', '--stat', '--', 'src/gen']);
step('tsc (strict)', process.execPath, [join(root, 'scripts', 'build.js')]);
step('lint and format (biome check; fix with npx biome check --write)', join(bin, 'biome'), ['check', '--error-on-warnings']);
const gates = ['docs', 'structure'].flatMap((d) =>
  readdirSync(join(root, 'dist', 'test', d))
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => join(root, 'dist', 'test', d, f)),
);
step('docs and structure drift tests', join(bin, 'node'), ['--test', ...gates]);
console.log('check: all gates passed');
