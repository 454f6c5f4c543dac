// A newcomer's `npm install` must leave a fresh clone clean: the committed
// lockfile agrees with package.json (it once held another engines range, and
// every install rewrote it). Checked on a clone of HEAD with npm's own
// resolver, without downloading packages.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('clean install', () => {
  it('npm install leaves a fresh clone without changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-clone-'));
    try {
      execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir], { stdio: 'pipe' });
      execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        stdio: 'pipe',
        timeout: 120_000,
      });
      const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
      assert.equal(status, '', `npm install changed the clone:\n${status}${execFileSync('git', ['diff'], { cwd: dir, encoding: 'utf8' }).slice(0, 2000)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
