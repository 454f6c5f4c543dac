// Alpine-style secdb JSON (Wolfi's and Chainguard's security.json) →
// normalized advisories. The format keeps only each advisory's latest state:
// under a package, the version that fixed a list of ids, or "0" for ids the
// package was never affected by. wolfictl writes each CGA id followed by its
// aliases, so a non-CGA id belongs to the CGA id before it; ids before any
// CGA id (Alpine's own secdb) are advisories of their own with a minted id.
// secdb has no times: every event is stamped SECDB_EVENT_TIME, a constant, so
// a re-import of the same file (or a fresh download of it) changes nothing.
import { ALIAS_ID, CGA_ID, mintAdvisoryId } from '../advisory-ids.js';
import { importedEvent, mergeRows, type FormatOptions } from './imported-event.js';
import { JsonFields, parseJsonBytes } from './json-input.js';
import { readJsonSources } from './json-sources.js';
import { PACKAGE_COMPONENT, type JsonValue, type NormalizedAdvisory, type NormalizedEvent, type ParsedFile } from './normalized-advisory.js';

/** The time of every secdb event: the format has none, and an import time would make each re-import new events. */
export const SECDB_EVENT_TIME = '1970-01-01T00:00:00.000Z';

const MAX_PACKAGES = 200_000;
const MAX_IDS = 10_000;
const MAX_ARCHS = 32;

interface IdGroup {
  advisoryId: string;
  aliases: string[];
}

/** The ids of one secfixes entry, grouped into advisories. */
function groupIds(pkg: string, ids: readonly string[]): IdGroup[] {
  const groups: IdGroup[] = [];
  let current: IdGroup | undefined;
  for (const id of ids) {
    if (CGA_ID.test(id)) {
      current = { advisoryId: id, aliases: [] };
      groups.push(current);
    } else if (!ALIAS_ID.test(id)) {
      // XSA-…, ALPINE-…: not an id an advisory may carry
    } else if (current) current.aliases.push(id);
    else groups.push({ advisoryId: mintAdvisoryId(['secdb', pkg, id]), aliases: [id] });
  }
  return groups;
}

export function parseSecdb(file: string, value: JsonValue, opts: FormatOptions): NormalizedAdvisory[] {
  const f = new JsonFields(file);
  const db = f.object(value, 'secdb');
  const archs = f.optionalArray(db.archs, 'archs').map((a, i) => f.string(a, `archs[${i}]`));
  if (archs.length > MAX_ARCHS) f.fail('archs', `more than ${MAX_ARCHS} architectures`);
  const architectures = archs.length > 0 ? [...new Set(archs)] : opts.arch;
  const packages = f.array(db.packages, 'packages');
  if (packages.length > MAX_PACKAGES) f.fail('packages', `more than ${MAX_PACKAGES} packages`);
  const rows: NormalizedAdvisory[] = [];
  packages.forEach((pv, pi) => {
    const where = `packages[${pi}].pkg`;
    const pkg = f.object(f.object(pv, `packages[${pi}]`).pkg, where);
    const name = f.string(pkg.name, `${where}.name`);
    const secfixes = f.optionalObject(pkg.secfixes, `${where}.secfixes`) ?? {};
    for (const [version, list] of Object.entries(secfixes)) {
      const vWhere = `${where}.secfixes[${JSON.stringify(version)}]`;
      if (version === '' || /\s/.test(version)) f.fail(vWhere, 'not a package version');
      const entries = f.optionalArray(list, vWhere);
      if (entries.length > MAX_IDS) f.fail(vWhere, `more than ${MAX_IDS} ids`);
      // Alpine writes "CVE-1 CVE-2" in one string at times.
      const ids = entries.flatMap((x, i) => f.string(x, `${vWhere}[${i}]`).split(/\s+/).filter(Boolean));
      const event: NormalizedEvent =
        version === '0'
          ? importedEvent('secdb', SECDB_EVENT_TIME, 'false-positive-determination', {})
          : importedEvent('secdb', SECDB_EVENT_TIME, 'fixed', { fixedVersion: version });
      for (const group of groupIds(name, ids))
        for (const arch of architectures)
          rows.push({
            origin: name,
            packageNamespace: opts.namespace,
            advisoryId: group.advisoryId,
            aliases: group.aliases,
            artifactName: name,
            artifactType: 'apk',
            artifactArchitecture: arch,
            componentName: name,
            ...PACKAGE_COMPONENT,
            author: 'import:secdb',
            events: [event],
          });
    }
  });
  return mergeRows(rows);
}

export function parseSecdbBytes(file: string, bytes: Uint8Array, opts: FormatOptions): ParsedFile {
  return { file, advisories: parseSecdb(file, parseJsonBytes(file, bytes), opts) };
}

/** Every secdb document under `path` (a file, a directory of *.json, or a zip of them). */
export async function* readSecdbAdvisories(path: string, opts: FormatOptions): AsyncGenerator<ParsedFile> {
  for await (const source of readJsonSources(path)) yield parseSecdbBytes(source.file, source.bytes, opts);
}
