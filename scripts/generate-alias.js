// Generates the client of the descriptor alias (issue 30): builds Berth's
// protos into an image, copies them under the deployed names with the same
// transform the server uses (src/server/alias, loaded through Node's type
// stripping, so nothing needs compiling first), and runs protoc-gen-es on the
// copies into src/gen/chainguard. Part of `npm run generate`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { aliasFiles } from '../src/server/alias/alias-descriptors.ts';
import { DEPLOYED_METHOD_NAMES, DEPLOYED_PACKAGES, DEPLOYED_SERVICE_NAMES } from '../src/server/alias/deployed-names.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buf = join(root, 'node_modules', '.bin', 'buf');
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };

function run(args) {
  const r = spawnSync(buf, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const dir = mkdtempSync(join(tmpdir(), 'berth-alias-'));
try {
  run(['build', '--exclude-source-info=false', '-o', join(dir, 'berth.binpb')]);
  const set = fromBinary(FileDescriptorSetSchema, readFileSync(join(dir, 'berth.binpb')));
  const table = { packages: DEPLOYED_PACKAGES, services: DEPLOYED_SERVICE_NAMES, methods: DEPLOYED_METHOD_NAMES };
  const alias = aliasFiles(set.file, table);
  writeFileSync(join(dir, 'alias.binpb'), toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [...set.file, ...alias] })));
  run(['generate', join(dir, 'alias.binpb'), '--template', 'buf.gen.alias.yaml', '--path', 'chainguard']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
