// dpkg's status database (`var/lib/dpkg/status`) and the one-file-per-package
// form distroless images carry (`var/lib/dpkg/status.d/<name>`): RFC 822-like
// stanzas (deb-control(5)). Package, Status (the third word must be
// `installed`; a status.d file may omit it), Version, Architecture, and
// Source with its optional `(version)`. Continuation lines (Description,
// Conffiles) are skipped as they stream by.
import type { OsPackageRecord } from './os-package-record.js';
import type { Stanza, StanzaFormat } from './stanza-lines.js';

export const DPKG_STATUS_PATH = 'var/lib/dpkg/status';
export const DPKG_STATUS_DIR = 'var/lib/dpkg/status.d';

export const DPKG_FORMAT: StanzaFormat = {
  field(line) {
    if (line[0] === ' ' || line[0] === '\t' || line[0] === '#') return undefined;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  },
  keys: new Set(['package', 'status', 'version', 'architecture', 'source']),
};

/** A status.d file that holds a package's stanza (not its `.md5sums` list). */
export function isStatusDFile(path: string): boolean {
  return path.startsWith(`${DPKG_STATUS_DIR}/`) && !path.slice(DPKG_STATUS_DIR.length + 1).includes('/') && !path.endsWith('.md5sums');
}

/** The package of one stanza; `null` for one that is not installed; a string saying why it is unreadable. */
export function dpkgRecord(stanza: Stanza, statusRequired: boolean): OsPackageRecord | null | string {
  const name = stanza.get('package');
  const version = stanza.get('version');
  const status = stanza.get('status');
  if (status !== undefined || statusRequired) {
    if (status?.split(/\s+/)[2] !== 'installed') return null;
  }
  if (!name || !version) return 'dpkg stanza without Package: or Version:';
  const record: OsPackageRecord = { name, version };
  const arch = stanza.get('architecture');
  if (arch) record.architecture = arch;
  const source = stanza.get('source');
  const m = source ? /^(\S+)(?:\s+\(([^)]+)\))?$/.exec(source) : null;
  record.source = m ? { name: m[1], version: m[2] ?? version } : { name, version };
  return record;
}
