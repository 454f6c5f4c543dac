// apk's installed database (`lib/apk/db/installed`, Alpine and Wolfi): one
// stanza per package of `X:value` lines; P name, V version, A architecture,
// o origin (the source package), L license
// (https://wiki.alpinelinux.org/wiki/Apk_spec#Installed_Database_V2).
import type { OsPackageRecord } from './os-package-record.js';
import type { Stanza, StanzaFormat } from './stanza-lines.js';

/** Where apk keeps it; under usr/ too, for an image whose /lib is a symlink to usr/lib (merged /usr). */
export const APK_DATABASE_PATHS: readonly string[] = ['lib/apk/db/installed', 'usr/lib/apk/db/installed'];

export const APK_FORMAT: StanzaFormat = {
  field(line) {
    if (line.length < 2 || line[1] !== ':') return undefined;
    return [line[0], line.slice(2).trim()];
  },
  keys: new Set(['P', 'V', 'A', 'o', 'L']),
};

/** The package of one stanza, or the reason it is not one. */
export function apkRecord(stanza: Stanza): OsPackageRecord | string {
  const name = stanza.get('P');
  const version = stanza.get('V');
  if (!name || !version) return 'apk database stanza without P: or V:';
  const record: OsPackageRecord = { name, version };
  const arch = stanza.get('A');
  if (arch) record.architecture = arch;
  record.source = { name: stanza.get('o') || name, version };
  const license = stanza.get('L');
  if (license) record.licenses = [license];
  return record;
}
