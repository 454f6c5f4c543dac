// The docker client's config file ($DOCKER_CONFIG/config.json, else
// ~/.docker/config.json; podman, skopeo and crane read it too). Berth only
// adds a `credHelpers` entry, keeping every other key as it was, and writes the
// file as docker does: a temporary file beside it (0600), fsynced, renamed over
// it — through a symlink to the file it points to — so a crash leaves the old
// file or the new one, never half of one.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Largest config file read: docker's own are a few KiB. */
const MAX_CONFIG_BYTES = 1 << 20;

export function dockerConfigPath(): string {
  return join(process.env.DOCKER_CONFIG || join(homedir(), '.docker'), 'config.json');
}

type ConfigObject = Record<string, unknown>;

const isObject = (v: unknown): v is ConfigObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file's JSON object; {} when it does not exist or is empty. Throws rather than lose what a file holds. */
function readConfig(file: string): ConfigObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (text.length > MAX_CONFIG_BYTES) throw new Error(`${file} is larger than ${MAX_CONFIG_BYTES} bytes; not changing it`);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or remove it, it was not changed`);
  }
  if (!isObject(parsed)) throw new Error(`${file} is not a JSON object; it was not changed`);
  return parsed;
}

/** The file a write must replace: the target of a symlink, else the path itself. */
function realTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function writeAtomically(file: string, text: string): void {
  const target = realTarget(file);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(target), `.${randomBytes(6).toString('hex')}.config.json.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, target);
  try {
    const dir = openSync(dirname(target), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {
    // some file systems cannot fsync a directory; the rename itself is atomic
  }
}

/** Sets credHelpers[host] = helper in the config file, creating it if missing; returns the helper it replaced, if another. */
export function setCredHelper(file: string, host: string, helper: string): string | undefined {
  const config = readConfig(file);
  const helpers = config.credHelpers ?? {};
  if (!isObject(helpers)) throw new Error(`"credHelpers" in ${file} is not a JSON object; it was not changed`);
  const previous = typeof helpers[host] === 'string' && helpers[host] !== helper ? (helpers[host] as string) : undefined;
  config.credHelpers = { ...helpers, [host]: helper };
  writeAtomically(file, `${JSON.stringify(config, null, '\t')}\n`);
  return previous;
}
