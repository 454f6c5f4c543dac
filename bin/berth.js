#!/usr/bin/env node
// Runs the berth CLI on the Node.js version the project pins (node_modules/.bin/node),
// whatever `node` the shell found first. When that means a child process, this one
// stands in for it: the signals that stop a program (kill, systemd, Ctrl-C, a
// container's PID 1) are passed on, and it exits as the child did.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = join(root, 'node_modules', '.bin', 'node');
const main = join(root, 'dist', 'src', 'cli', 'main.js');
const FORWARDED = ['SIGTERM', 'SIGINT', 'SIGHUP'];

if (!existsSync(main)) {
  console.error('berth is not built yet: run `npm install` (or `npm run build`) in ' + root);
  process.exit(1);
}
if (process.versions.node.split('.')[0] !== '24' && existsSync(pinned)) {
  const child = spawn(pinned, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Listening also keeps this process alive on a signal until the child has exited.
  // (Ctrl-C reaches the whole foreground group, so the child may get SIGINT twice:
  // berth serve ignores a second one while it stops.)
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    console.error(`berth: cannot start ${pinned}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Killed by a signal: die of the same one, as a shell reports it (128 + n).
    for (const s of FORWARDED) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] ?? 0));
  });
} else {
  await import(main);
}
