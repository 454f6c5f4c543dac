// `berth registry gc` as an operator meets it: the help that states the
// rules, refusals of bad flags and of a data directory holding no registry
// (which must not be created), the summary for people and for programs, and
// the progress lines on stderr when it is not a terminal.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, useBerth, type Berth } from '../harness/berth-process.js';
import { gcCli, RepoClient } from '../harness/registry-gc.js';

function berthCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('berth registry gc', () => {
  let berth: Berth;

  useBerth((b) => {
    berth = b;
  });

  it('explains its rules and flags in --help', async () => {
    const r = await berthCli(['registry', 'gc', '--help']);
    assert.equal(r.code, 0, r.stderr);
    for (const text of [
      '--grace',
      '--upload-grace',
      '--delete-untagged',
      '--dry-run',
      '--data',
      '--database',
      'referrers',
      'Without --delete-untagged no manifest is deleted',
    ]) {
      assert.ok(r.stdout.includes(text), `help mentions ${text}`);
    }
  });

  it('refuses a malformed or out-of-range duration, and a data directory with no registry in it, creating nothing', async () => {
    for (const [flag, value] of [
      ['--grace', 'soon'],
      ['--grace', '-1s'],
      ['--upload-grace', '400d'],
      ['--grace', '1.5h'],
    ]) {
      const r = await gcCli(berth, [flag, value]);
      assert.equal(r.code, 1, `${flag} ${value}`);
      assert.match(r.stderr, new RegExp(`${flag} must be a duration`));
    }
    const empty = join(mkdtempSync(join(tmpdir(), 'berth-gc-empty-')), 'nothing-here');
    const r = await gcCli({ dataDir: empty }, []);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no registry data in/);
    assert.equal(existsSync(empty), false, 'no data directory was created');
  });

  it('prints a summary for people, progress lines on stderr, and a dry run that says nothing changed', async () => {
    const c = await RepoClient.open(berth, 'cli-gc');
    const stray = await c.pushBlob(Buffer.alloc(2048, 7));

    const dry = await gcCli(berth, ['--grace', '0s', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /^Dry run: nothing was changed\. A run now would remove:\n {2}manifests {2}0\n {2}blob links 1\n {2}blobs {6}1\n {2}bytes {6}2\.0 KiB \(2048\)\n/,
    );
    assert.equal(await c.blobStatus(stray), 200);

    const run = await gcCli(berth, ['--grace', '0s']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Removed in \d+\.\ds:\n {2}manifests {2}0\n {2}blob links 1\n {2}blobs {6}1\n {2}bytes {6}2\.0 KiB \(2048\)\n {2}uploads {4}0\n\(\d+ repos scanned\)\n$/,
    );
    // Not a terminal: whole lines, one per phase at least, and the final state.
    const lines = run.stderr.trim().split('\n');
    for (const phase of ['uploads', 'repos', 'blobs', 'files'])
      assert.ok(
        lines.some((l) => l.startsWith(`gc [${phase} `)),
        `a line for ${phase}:\n${run.stderr}`,
      );
    assert.match(lines[lines.length - 1], /^gc \[done\] manifests 0 · links 1 · blobs 1 \(2\.0 KiB\) · uploads 0$/);
    assert.ok(!run.stderr.includes('\r'), 'no carriage returns in a log');
    assert.equal(await c.blobStatus(stray), 404);
  });
});
