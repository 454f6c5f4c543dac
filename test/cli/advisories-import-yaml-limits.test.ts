// `berth advisories import` refuses YAML nested deeper than 64 levels (the
// JSON inputs' limit) while reading it: 200,000 levels of flow ("[[[…") or of
// block indicators ("- - - …") end the run with one line naming the file and
// the limit, exit status 1, and a small peak RSS, where the whole tree used
// to be built (hundreds of MB) and the stack overflowed. Aliases are refused
// before anything is expanded. 64 levels are still read.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, type Berth, useBerth } from '../harness/berth-process.js';

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

function importCli(berth: Berth, args: string[]): Promise<Run> {
  const all = [CLI, 'advisories', 'import', '--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : []), ...args];
  const env = { ...process.env };
  delete env.BERTH_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, all, { env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const e = err as { code?: number; signal?: string } | null;
      resolve({ code: e ? (e.code ?? null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

const HEAD = 'schema-version: 2.0.2\npackage:\n  name: deep\nadvisories:\n';
const LEVELS = 200_000;
// The root mapping is one level and `advisories:` another, so the list value starts at the third.
const ROOT_LEVELS = 2;
// Peak RSS of a refused run: the process's own baseline (Node, SQLite, parse threads) with room to spare;
// building the 200,000-level tree took hundreds of MB more.
const MAX_RSS_KIB = 320 * 1024;

describe('berth advisories import: YAML nesting and aliases', () => {
  let berth: Berth;
  useBerth((b) => {
    berth = b;
  });
  const dir = mkdtempSync(join(tmpdir(), 'berth-yaml-limits-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  for (const [shape, body] of [
    ['flow collections', `  - ${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}\n`],
    ['block sequence indicators', `  ${'- '.repeat(LEVELS)}x\n`],
  ] as const) {
    it(`refuses ${LEVELS.toLocaleString('en')} levels of ${shape} with the file and the limit, in small memory`, async () => {
      const file = write(`deep-${shape.split(' ')[0]}.advisories.yaml`, HEAD + body);
      const r = await importCli(berth, [file, '--stats', '-o', 'json']);
      assert.equal(r.signal, null, `not killed: ${r.stderr.slice(0, 500)}`);
      assert.equal(r.code, 1, r.stderr.slice(0, 500));
      assert.equal(r.stderr, `${file}:5: nested deeper than 64 levels\n`);
      const out = JSON.parse(r.stdout) as { imports: { added: number; error: string }[]; stats: { maxRssKiB: number } };
      assert.equal(out.imports[0].added, 0);
      assert.ok(out.stats.maxRssKiB < MAX_RSS_KIB, `peak RSS ${out.stats.maxRssKiB} KiB`);
    });
  }

  it('refuses 65 levels and reads 64 (then refuses the document for its schema, not its depth)', async () => {
    const levels = (n: number) => `  - ${'['.repeat(n - ROOT_LEVELS)}${']'.repeat(n - ROOT_LEVELS)}\n`;
    const deep = write('level-65.advisories.yaml', HEAD + levels(65));
    const refused = await importCli(berth, [deep]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `${deep}:5: nested deeper than 64 levels\n`);
    const ok = write('level-64.advisories.yaml', HEAD + levels(64));
    const read = await importCli(berth, [ok]);
    assert.equal(read.code, 1);
    assert.equal(read.stderr, `${ok}:5: advisory must be a mapping\n`);
  });

  it('refuses an alias where it stands, without expanding it', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const file = write('laughs.advisories.yaml', `${laughs.join('\n')}\n${HEAD}`);
    const r = await importCli(berth, [file]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `${file}:2: YAML aliases are not allowed\n`);
  });
});
