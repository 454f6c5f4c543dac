// What the berth command loads before it runs a command: only commander and
// the definitions of the commands (names, options, help). The server, the
// store, generated protos and other packages are loaded by the action that
// needs them, so help, and every command, starts without them
// (docs/performance.md, "CLI start-up"). Observed with a preloaded module
// hook that records every module the process loads.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliEnv, runProgram } from '../harness/cli-run.js';
import { CLI } from '../harness/berth-process.js';

const HOOK = join(import.meta.dirname, '..', 'harness', 'loaded-modules-hook.js');
const SRC = `${join(CLI, '..', '..')}/`;
const dir = mkdtempSync(join(tmpdir(), 'berth-start-up-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** Runs `berth args…` with the hook; its exit code, stdout and the modules it loaded. */
async function loadedBy(args: string[]): Promise<{ code: number; stdout: string; modules: string[] }> {
  const out = join(dir, `loaded-${++runs}.txt`);
  const env = cliEnv(join(dir, 'config'), { BERTH_TEST_LOADED_MODULES: out });
  const r = await runProgram(process.execPath, ['--import', HOOK, CLI, ...args], { env });
  return {
    code: r.code,
    stdout: r.stdout,
    modules: readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l !== ''),
  };
}

/** The folder under src/ (server, store, cli…) of a module of Berth's own. */
function srcFolder(url: string): string | undefined {
  const path = url.startsWith('file://') ? new URL(url).pathname : '';
  return path.startsWith(SRC) ? path.slice(SRC.length).split('/')[0] : undefined;
}

/** The npm package of a module under node_modules. */
function packageOf(url: string): string | undefined {
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return m?.[1];
}

const HEAVY_FOLDERS = ['server', 'store', 'runtime', 'gen'];

describe('berth start-up', () => {
  for (const args of [['--help'], ['images', 'repos', '--help'], ['serve', '--help'], ['advisories', 'import', '--help']]) {
    it(`berth ${args.join(' ')} loads commander and command definitions only`, async () => {
      const r = await loadedBy(args);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^Usage: berth/);
      // The hook saw the program: the command definitions and commander.
      assert.ok(
        r.modules.some((u) => u.endsWith('/cli/program.js')),
        'the hook recorded no module',
      );
      assert.deepEqual([...new Set(r.modules.map(packageOf).filter((p) => p !== undefined))], ['commander']);
      const heavy = r.modules.filter((u) => HEAVY_FOLDERS.some((f) => srcFolder(u) === f));
      assert.deepEqual(heavy, [], 'server, store, runtime or generated modules were loaded');
      assert.ok(!r.modules.includes('node:http') && !r.modules.includes('node:http2'), 'node:http was loaded');
    });
  }

  it('an action loads what it needs when it runs', async () => {
    // berth iam capabilities list needs no server: it reads the generated proto of capabilities.
    const r = await loadedBy(['iam', 'capabilities', 'list', '-o', 'id']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^CAP_/m);
    assert.ok(r.modules.some((u) => srcFolder(u) === 'gen'));
    assert.ok(r.modules.some((u) => packageOf(u) === '@bufbuild/protobuf'));
  });
});
