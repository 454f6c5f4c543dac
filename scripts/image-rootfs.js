// The root filesystem of Berth's container image, staged in a directory for
// scripts/image.js: the pinned Node.js binary (stripped of debug symbols) and
// the shared libraries it loads, CA certificates, a non-root user, the built
// server (dist/src, the console, the OpenAPI document) and the production
// packages the server imports. No shell, no npm, no compilers.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const UID = 65532;
export const APP = '/app';
export const DATA = '/var/lib/berth';
export const NODE = '/usr/local/bin/node';
export const CA_FILE = '/etc/ssl/certs/ca-certificates.crt';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${(r.stderr || r.error?.message || '').slice(0, 2000)}`);
  return r.stdout;
}

function* jsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

/**
 * The dependencies the built server imports (static, dynamic or resolved as a
 * file): the rest of package.json's dependencies build the console (Vite,
 * Preact, marked…) and stay out. `node` is the runtime, copied as a binary.
 */
function importedDependencies(root) {
  const deps = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  const text = [...jsFiles(join(root, 'dist', 'src'))].map((f) => readFileSync(f, 'utf8')).join('\n');
  return deps.filter((d) => {
    if (d === 'node') return false;
    const name = d.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return new RegExp(`(?:from|import|require|resolve)\\s*\\(?\\s*['"]${name}(?:/[^'"]*)?['"]`).test(text);
  });
}

/** Directories of the installed packages `names` need, by npm's own tree of the production dependencies. */
function packageDirs(root, names, skip) {
  const tree = JSON.parse(run('npm', ['ls', '--all', '--omit=dev', '--json', '--long'], { cwd: root }));
  const dirs = new Set();
  const walk = (deps) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (skip.has(name) || !node.path) continue; // deduped entries repeat a path: the set keeps one
      dirs.add(node.path);
      walk(node.dependencies);
    }
  };
  walk(Object.fromEntries(names.map((n) => [n, tree.dependencies[n]])));
  return [...dirs];
}

const put = (stage, path, text, mode = 0o644) => {
  mkdirSync(dirname(join(stage, path)), { recursive: true });
  writeFileSync(join(stage, path), text, { mode });
};

function copyNode(root, stage) {
  const binary = realpathSync(join(root, 'node_modules', 'node', 'bin', 'node'));
  const target = join(stage, NODE);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(binary, target);
  // Symbols and debug information are a seventh of the binary; JavaScript stack traces are V8's own.
  if (spawnSync('strip', [target]).status !== 0) console.warn('image: strip (binutils) is missing; node keeps its debug symbols');
  for (const lib of run('ldd', [binary]).matchAll(/(\/\S+\.so[.\d]*)/g)) {
    mkdirSync(join(stage, dirname(lib[1])), { recursive: true });
    cpSync(realpathSync(lib[1]), join(stage, lib[1]));
  }
}

/** Relative paths of the files under `dir` (relative to `base`), leaving out nested node_modules and what `skip` refuses. */
function filesUnder(base, dir, skip = () => false) {
  return readdirSync(join(base, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.name === 'node_modules' || skip(p)) return [];
    return e.isDirectory() ? filesUnder(base, p, skip) : [p];
  });
}

/** Copies `files` (relative to `from`) to the same paths under `to`, by one tar pipe (fast on ten thousand small files). */
function copyFiles(from, files, to, work) {
  const list = join(work, 'files.txt');
  writeFileSync(list, `${files.join('\n')}\n`);
  mkdirSync(to, { recursive: true });
  run('sh', ['-c', 'tar -C "$1" --no-recursion -cf - -T "$3" | tar -C "$2" -xf -', 'sh', from, to, list]);
}

function copyApp(root, stage, work) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // type: module makes dist/'s .js files ES modules; the rest says what this is.
  put(
    stage,
    `${APP}/package.json`,
    `${JSON.stringify({ name: pkg.name, version: pkg.version, license: pkg.license, type: pkg.type, private: true }, null, 2)}\n`,
  );
  const files = [
    ...filesUnder(root, 'dist/src', (p) => /\.(map|d\.ts)$/.test(p)),
    ...filesUnder(root, 'dist/console'),
    ...filesUnder(root, 'bin'),
    'docs/openapi.json',
  ];
  // redoc is served as one file (its standalone bundle holds its dependencies): React, MobX and the rest stay out.
  const imported = importedDependencies(root);
  const modules = realpathSync(join(root, 'node_modules'));
  for (const dir of packageDirs(root, imported, new Set(['redoc'])))
    files.push(...filesUnder(modules, relative(modules, realpathSync(dir))).map((f) => join('node_modules', f)));
  if (imported.includes('redoc')) files.push('node_modules/redoc/package.json', 'node_modules/redoc/bundles/redoc.standalone.js');
  copyFiles(root, files, join(stage, APP), work);
  cpSync(join(root, 'scripts', 'image-healthcheck.js'), join(stage, APP, 'healthcheck.js'));
}

/** Stages the image's root filesystem in `stage` (an empty directory); `work` is for scratch files. */
export function stageRootfs(root, stage, work) {
  copyNode(root, stage);
  copyApp(root, stage, work);
  put(stage, '/etc/passwd', `root:x:0:0:root:/root:/sbin/nologin\nberth:x:${UID}:${UID}:berth:${DATA}:/sbin/nologin\n`);
  put(stage, '/etc/group', `root:x:0:\nberth:x:${UID}:\n`);
  put(stage, '/etc/nsswitch.conf', 'hosts: files dns\n');
  if (existsSync(CA_FILE)) put(stage, CA_FILE, readFileSync(CA_FILE));
  else console.warn(`image: ${CA_FILE} is missing (Debian package ca-certificates); Node's bundled CA list still applies`);
  mkdirSync(join(stage, 'tmp'));
  chmodSync(join(stage, 'tmp'), 0o1777);
}
