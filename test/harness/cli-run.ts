// Runs Berth's command-line programs as a user would: `berth` (the compiled
// CLI on the test's Node.js) and the bins of the package, such as
// docker-credential-berth, by their own shebang. Never throws on a non-zero
// exit; tests assert on the code and both outputs.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from './berth-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const CREDENTIAL_HELPER_BIN = join(ROOT, 'bin', 'docker-credential-berth.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test's environment with its own CLI config directory and nothing that points the CLI elsewhere. */
export function cliEnv(configDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir, ...extra };
  delete env.BERTH_API;
  delete env.BERTH_CREDENTIALS;
  delete env.DOCKER_CONFIG;
  return { ...env, ...extra };
}

/** Runs `file args…` with `input` on stdin. */
export function runProgram(file: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { env: opts.env ?? process.env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(opts.input ?? '');
  });
}

/** `berth args…` on this Node.js. */
export function berthCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
  return runProgram(process.execPath, [CLI, ...args], opts);
}
