// `berth serve --print-config`: the effective settings, after every layer, as
// the YAML a --config file holds (each value's source in a comment) or as
// JSON; secrets masked. Settings with no value are listed in a closing comment.
import type { Command } from 'commander';
import { Document, isPair, isScalar, isMap } from 'yaml';
import type { SettingOrigins } from './config-layers.js';
import { maskSetting } from './secret-mask.js';
import { envName, fileKey, settableOptions } from './setting-names.js';

export type PrintFormat = 'yaml' | 'json';

export function printFormat(value: true | string): PrintFormat {
  if (value === true || value === 'yaml') return 'yaml';
  if (value === 'json') return 'json';
  throw new Error(`--print-config takes yaml or json, got ${JSON.stringify(value.slice(0, 80))}`);
}

export function renderConfig(cmd: Command, origins: SettingOrigins, format: PrintFormat): string {
  const values: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const option of settableOptions(cmd.options)) {
    const key = fileKey(option);
    const value = cmd.getOptionValue(option.attributeName());
    if (value === undefined) unset.push(key);
    else values[key] = maskSetting(option, key, value);
  }
  if (format === 'json') return `${JSON.stringify(values, null, 2)}\n`;
  const doc = new Document(values);
  doc.commentBefore = ' berth serve: the effective configuration (flags > BERTH_* environment > --config file > defaults); secrets masked';
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (!isPair(pair) || !isScalar(pair.key) || !isScalar(pair.value)) continue;
      const origin = origins.get(String(pair.key.value));
      if (origin) pair.value.comment = origin.source === 'env' || origin.source === 'file' ? ` ${origin.source} ${origin.from}` : ` ${origin.source}`;
    }
  }
  if (unset.length > 0) doc.comment = ` not set: ${unset.map((k) => `${k} (${envName(k)})`).join(', ')}`;
  return doc.toString({ lineWidth: 0 });
}
