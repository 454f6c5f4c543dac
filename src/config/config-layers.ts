// Fills the flags of a command from its other sources, after commander parsed
// the command line: one precedence rule, flags > BERTH_* environment >
// --config file > defaults. Unknown file keys and values of the wrong type
// are errors naming the key (or variable), so a typo never falls back to a
// default silently. Commander's own .env() is not used: it turns a boolean
// flag on for any value, "false" included.
import type { Command, Option } from 'commander';
import { readConfigFile } from './config-file.js';
import { COMMAND_LINE_ONLY, envName, envNames, fileKey, settableOptions } from './setting-names.js';

export type SettingSource = 'flag' | 'env' | 'file' | 'default';

/** Where each setting's value came from: the source and, for env and file, the variable or file. */
export type SettingOrigins = Map<string, { source: SettingSource; from?: string }>;

/** Longest value a variable or file may give one flag (URLs and paths are far shorter). */
const MAX_VALUE_CHARS = 4096;

function checkedText(where: string, text: string): string {
  if (text.length > MAX_VALUE_CHARS) throw new Error(`${where} is longer than ${MAX_VALUE_CHARS} characters`);
  if (text.includes('\0')) throw new Error(`${where} contains a NUL character`);
  return text;
}

function fromEnv(option: Option, name: string, raw: string): unknown {
  if (!option.isBoolean()) return checkedText(name, raw);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(raw.slice(0, 80))}`);
}

function fromFile(option: Option, where: string, value: unknown): unknown {
  if (option.isBoolean()) {
    if (typeof value !== 'boolean') throw new Error(`${where} must be true or false, got ${describe(value)}`);
    return value;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new Error(`${where} must be a string, got ${describe(value)}`);
  return checkedText(where, value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value).slice(0, 80)}`;
}

/**
 * Sets each flag the command line did not give from the environment, else
 * from the file (`--config`, or BERTH_CONFIG), leaving defaults for the rest.
 */
export function applyConfigLayers(cmd: Command, env: NodeJS.ProcessEnv): SettingOrigins {
  const origins: SettingOrigins = new Map();
  const configFromCli = cmd.getOptionValueSource('config') === 'cli';
  const configPath = configFromCli ? (cmd.getOptionValue('config') as string) : env[envName('config')] || undefined;
  if (configPath !== undefined && !configFromCli) cmd.setOptionValueWithSource('config', configPath, 'env');
  const file = configPath === undefined ? {} : readConfigFile(configPath);
  const options = settableOptions(cmd.options);
  const known = new Set(options.map(fileKey));
  for (const key of Object.keys(file)) {
    if (COMMAND_LINE_ONLY.has(key)) throw new Error(`--config: ${configPath}: "${key}" can only be given on the command line`);
    if (!known.has(key))
      throw new Error(`--config: ${configPath}: unknown key "${key.slice(0, 80)}" (keys are the flags of berth serve without the leading --)`);
  }
  for (const option of options) {
    const key = fileKey(option);
    const attr = option.attributeName();
    if (cmd.getOptionValueSource(attr) === 'cli') {
      origins.set(key, { source: 'flag' });
      continue;
    }
    // An empty variable is unset, as a shell's `BERTH_X=` and a compose file's blank value mean.
    const name = envNames(key).find((n) => (env[n] ?? '') !== '');
    if (name !== undefined) {
      cmd.setOptionValueWithSource(attr, fromEnv(option, name, env[name] as string), 'env');
      origins.set(key, { source: 'env', from: name });
    } else if (Object.hasOwn(file, key)) {
      cmd.setOptionValueWithSource(attr, fromFile(option, `--config: ${configPath}: "${key}"`, file[key]), 'config');
      origins.set(key, { source: 'file', from: configPath });
    } else {
      origins.set(key, { source: 'default' });
    }
  }
  return origins;
}
