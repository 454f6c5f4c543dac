// `berth serve` restarts itself once, in place (same pid), with a small V8
// young generation (src/cli/server-heap.ts), unless the operator gave the flag.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startBerth } from '../harness/berth-process.js';

const onLinux = process.platform === 'linux';

/** The running process's command line. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('berth serve heap flags', { skip: !onLinux && '/proc is Linux only' }, () => {
  it('runs with --max-semi-space-size=16 in the process it was started as', async () => {
    const berth = await startBerth();
    try {
      const pid = berth.process.pid!;
      const args = commandLine(pid);
      assert.ok(args.includes('--max-semi-space-size=16'), args.join(' '));
      assert.ok(args.includes('serve'), args.join(' '));
      const ping = await fetch(`${berth.url}/ping/v2/ping`);
      assert.equal(ping.status, 200);
    } finally {
      await berth.stop();
    }
  });

  it('keeps a --max-semi-space-size the operator gave', async () => {
    const berth = await startBerth({ nodeArgs: ['--max-semi-space-size=4'] });
    try {
      const args = commandLine(berth.process.pid!);
      assert.ok(args.includes('--max-semi-space-size=4'), args.join(' '));
      assert.ok(!args.some((a) => a === '--max-semi-space-size=16'), args.join(' '));
    } finally {
      await berth.stop();
    }
  });
});
