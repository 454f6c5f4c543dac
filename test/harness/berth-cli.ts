// Runs the berth CLI as a child process with its own config directory, so a
// test's login never touches the user's, and BERTH_API/BERTH_CREDENTIALS from
// the environment cannot point it elsewhere.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './berth-process.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export class BerthCli {
  readonly configDir = mkdtempSync(join(tmpdir(), 'berth-cli-'));

  run(...args: string[]): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: this.configDir };
    delete env.BERTH_API;
    delete env.BERTH_CREDENTIALS;
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  /** Runs and asserts success; the stdout. */
  async ok(...args: string[]): Promise<string> {
    const r = await this.run(...args);
    assert.equal(r.code, 0, `berth ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  }

  /** Runs and asserts failure (exit 1); the stderr. */
  async fails(...args: string[]): Promise<string> {
    const r = await this.run(...args);
    assert.equal(r.code, 1, `berth ${args.join(' ')} should have failed:\n${r.stdout}`);
    return r.stderr;
  }

  dispose(): void {
    rmSync(this.configDir, { recursive: true, force: true });
  }
}
