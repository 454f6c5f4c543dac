// Runs Debian's skopeo, the real registry client of the tests, against a Berth
// registry on loopback (plain HTTP, so TLS verification is off for it), with
// its own auth file so nothing leaks between tests or from the machine. A
// session shares one auth file across calls (`skopeo login`, then pulls).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why tests that need skopeo are skipped on this machine, or false when it is installed (CI installs it). */
export const skopeoMissing: string | false =
  spawnSync('skopeo', ['--version']).status === 0 ? false : 'skopeo is not installed (apt-get install skopeo); .ci/run installs it';

export interface SkopeoResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SkopeoOptions {
  /** The auth file to use (and keep); a fresh empty one when absent. */
  authFile?: string;
  /** Written to skopeo's standard input (`--password-stdin`). */
  input?: string;
  /** Added to the environment (PATH for credential helpers, their settings). */
  env?: NodeJS.ProcessEnv;
}

/** Runs skopeo with `args`; never throws on a non-zero exit (tests assert on it). */
export function skopeo(args: string[], timeoutMs = 120_000, opts: SkopeoOptions = {}): Promise<SkopeoResult> {
  const authDir = mkdtempSync(join(tmpdir(), 'berth-skopeo-'));
  let authfile = opts.authFile;
  if (authfile === undefined) {
    authfile = join(authDir, 'auth.json');
    writeFileSync(authfile, '{"auths":{}}');
  }
  const env = { ...process.env, ...opts.env, REGISTRY_AUTH_FILE: authfile, HOME: authDir };
  return new Promise((resolve) => {
    const child = execFile('skopeo', args, { env, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    // skopeo may exit before it reads its input (or never read it): a closed pipe is not a test failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
  });
}

/** skopeo calls that share one auth file, as a user's do after `skopeo login`. */
export function skopeoSession(): (args: string[], input?: string) => Promise<SkopeoResult> {
  const authFile = join(mkdtempSync(join(tmpdir(), 'berth-skopeo-session-')), 'auth.json');
  writeFileSync(authFile, '{"auths":{}}');
  return (args, input) => skopeo(args, 120_000, { authFile, input });
}

/** Credentials flags for one side of a copy: `--src-creds`/`--dest-creds`, or none for anonymous. */
export function creds(side: 'src' | 'dest', user?: string, password?: string): string[] {
  const tls = `--${side}-tls-verify=false`;
  return user === undefined ? [tls, `--${side}-no-creds`] : [tls, `--${side}-creds`, `${user}:${password}`];
}

/** Flags for commands that take one image (inspect, list-tags, delete). */
export function oneImageCreds(user?: string, password?: string): string[] {
  return user === undefined ? ['--tls-verify=false', '--no-creds'] : ['--tls-verify=false', '--creds', `${user}:${password}`];
}
