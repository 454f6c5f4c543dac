// OSV records → normalized advisories. Chainguard and Wolfi publish their
// advisories as OSV (wolfictl's projection: a record per CGA id whose latest
// event is fixed or a false positive, one `affected` per origin package and
// subpackage); any other OSV source (an ecosystem's all.zip) maps the same
// way with a minted CGA id. Pure: bytes in, rows out.
import { ALIAS_ID, CGA_ID, mintAdvisoryId } from '../advisory-ids.js';
import { importedEvent, mergeRows, type FormatOptions } from './imported-event.js';
import { JsonFields, parseJsonBytes } from './json-input.js';
import { readJsonSources } from './json-sources.js';
import { PACKAGE_COMPONENT, type JsonObject, type JsonValue, type NormalizedAdvisory, type NormalizedEvent, type ParsedFile } from './normalized-advisory.js';
import { artifactTypeOfPurl, parsePurl } from './purl.js';
import type { AdvisoryAffected, AffectedInterval, OsvEvent } from '../affected/affected-ranges.js';
import { osvIntervals } from '../affected/affected-ranges.js';
import { osvEcosystem, packageKey, purlEcosystem, schemeOfEcosystem } from '../affected/ecosystem-keys.js';

const MAX_AFFECTED = 10_000;
const MAX_IDS = 10_000;
/** Events per range and listed versions per affected package: far above real records. */
const MAX_EVENTS = 10_000;
const MAX_VERSIONS = 100_000;

// Without a purl the ecosystem says what kind of artifact it is.
function artifactTypeOfEcosystem(ecosystem: string): string {
  const e = ecosystem.split(':')[0].toLowerCase();
  if (e === 'wolfi' || e === 'chainguard' || e === 'alpine' || e === 'alpaquita' || e === 'bellsoft hardened containers') return 'apk';
  if (e === 'pypi' || e === 'maven' || e === 'npm' || e === 'go' || e === 'crates.io' || e === 'rubygems' || e === 'nuget' || e === 'packagist')
    return 'library';
  return e;
}

/** The ids of `aliases` and `related` (strings, or {id} objects). */
function listedIds(f: JsonFields, record: JsonObject): string[] {
  const ids: string[] = [];
  for (const key of ['aliases', 'related'] as const) {
    const list = f.optionalArray(record[key], key);
    if (list.length > MAX_IDS) f.fail(key, `more than ${MAX_IDS} ids`);
    list.forEach((v, i) => {
      if (typeof v === 'string') ids.push(v);
      else ids.push(f.string(f.object(v, `${key}[${i}]`).id, `${key}[${i}].id`));
    });
  }
  return ids;
}

function isFalsePositive(...specifics: Array<JsonObject | undefined>): boolean {
  return specifics.some((s) => s?.false_positive === true);
}

/** The rows of one OSV record ([] when it is withdrawn). */
export function parseOsvRecord(file: string, value: JsonValue, opts: FormatOptions): NormalizedAdvisory[] {
  const f = new JsonFields(file);
  const record = f.object(value, 'record');
  const id = f.string(record.id, 'id');
  const modified = f.time(record.modified, 'modified');
  const published = record.published === undefined ? undefined : f.time(record.published, 'published');
  if (record.withdrawn !== undefined && record.withdrawn !== null) {
    f.time(record.withdrawn, 'withdrawn');
    return [];
  }
  const listed = listedIds(f, record);
  const cga = CGA_ID.test(id) ? id : listed.find((x) => CGA_ID.test(x));
  // The record's own id is an alias too when it is not the advisory id (a GHSA record of GitHub's feed).
  const aliasPool = [id, ...listed].filter((x) => x !== cga && ALIAS_ID.test(x));
  const recordSpecific = f.optionalObject(record.database_specific, 'database_specific');

  const affected = f.optionalArray(record.affected, 'affected');
  if (affected.length > MAX_AFFECTED) f.fail('affected', `more than ${MAX_AFFECTED} entries`);
  if (affected.length === 0) return [];
  const entries = affected.map((v, i) => {
    const where = `affected[${i}]`;
    const a = f.object(v, where);
    const pkg = f.object(a.package, `${where}.package`);
    const name = f.string(pkg.name, `${where}.package.name`);
    const ecosystem = f.optionalString(pkg.ecosystem, `${where}.package.ecosystem`) ?? '';
    const purlText = f.optionalString(pkg.purl, `${where}.package.purl`);
    const purl = purlText ? parsePurl(purlText) : undefined;
    if (purlText && !purl) f.fail(`${where}.package.purl`, `not a package URL: ${purlText}`);
    const databaseSpecific = f.optionalObject(a.database_specific, `${where}.database_specific`);
    const ecosystemSpecific = f.optionalObject(a.ecosystem_specific, `${where}.ecosystem_specific`);
    const origin = [databaseSpecific?.origin, ecosystemSpecific?.origin].find((x): x is string => typeof x === 'string' && x !== '');
    return { where, a, name, ecosystem, purl, databaseSpecific, origin };
  });
  const origin = entries.find((e) => e.origin)?.origin ?? entries[0].name;

  const rows: NormalizedAdvisory[] = [];
  for (const e of entries) {
    const events: NormalizedEvent[] = [];
    let flagged = false;
    // What matching needs of the record: the ECOSYSTEM and SEMVER ranges as intervals, else the listed versions.
    const ecosystem = e.ecosystem ? osvEcosystem(e.ecosystem) : e.purl ? purlEcosystem(e.purl) : '';
    const scheme = schemeOfEcosystem(ecosystem);
    const intervals: AffectedInterval[] = [];
    const ranges = f.optionalArray(e.a.ranges, `${e.where}.ranges`);
    ranges.forEach((rv, ri) => {
      const rWhere = `${e.where}.ranges[${ri}]`;
      const range = f.object(rv, rWhere);
      const type = f.string(range.type, `${rWhere}.type`);
      if (type === 'GIT') return; // commits, not package versions
      const rangeEvents = f.array(range.events, `${rWhere}.events`);
      if (rangeEvents.length > MAX_EVENTS) f.fail(`${rWhere}.events`, `more than ${MAX_EVENTS} events`);
      if (scheme && (type === 'ECOSYSTEM' || type === 'SEMVER')) {
        const osvEvents = rangeEvents.map((ev, ei): OsvEvent => {
          const event = f.object(ev, `${rWhere}.events[${ei}]`);
          const out: OsvEvent = {};
          for (const k of ['introduced', 'fixed', 'last_affected', 'limit'] as const)
            if (event[k] !== undefined) out[k] = f.string(event[k], `${rWhere}.events[${ei}].${k}`);
          return out;
        });
        intervals.push(...osvIntervals(type === 'SEMVER' && scheme !== 'go' ? 'semver' : scheme, osvEvents));
      }
      const rangeSpecific = f.optionalObject(range.database_specific, `${rWhere}.database_specific`);
      f.array(range.events, `${rWhere}.events`).forEach((ev, ei) => {
        const event = f.object(ev, `${rWhere}.events[${ei}]`);
        if (event.fixed === undefined) return;
        const fixed = f.string(event.fixed, `${rWhere}.events[${ei}].fixed`);
        // "fixed: 0": no version was ever affected — wolfictl's false positive (it also sets false_positive).
        if (fixed === '0') events.push(importedEvent('osv', modified, 'false-positive-determination', {}));
        else events.push(importedEvent('osv', modified, 'fixed', { fixedVersion: fixed }));
      });
      if (isFalsePositive(rangeSpecific)) flagged = true;
    });
    if (events.length === 0 && (flagged || isFalsePositive(e.databaseSpecific, recordSpecific)))
      events.push(importedEvent('osv', modified, 'false-positive-determination', {}));
    if (events.length === 0) events.push(importedEvent('osv', published ?? modified, 'detection', { manual: {} }));
    if (scheme && intervals.length === 0) {
      const versions = f.optionalArray(e.a.versions, `${e.where}.versions`);
      if (versions.length > MAX_VERSIONS) f.fail(`${e.where}.versions`, `more than ${MAX_VERSIONS} versions`);
      versions.forEach((v, vi) => {
        const version = f.string(v, `${e.where}.versions[${vi}]`);
        intervals.push({ introduced: version, fixed: '', lastAffected: version });
      });
    }
    const affected: AdvisoryAffected | undefined = scheme ? { ecosystem, package: packageKey(ecosystem, e.name), intervals } : undefined;
    const advisoryId = cga ?? mintAdvisoryId(['osv', id, e.name]);
    const arch = e.purl?.qualifiers.arch;
    const namespace = opts.namespace || (e.purl?.type === 'apk' ? e.purl.namespace : '');
    for (const architecture of arch ? [arch] : opts.arch) {
      rows.push({
        origin,
        packageNamespace: namespace,
        advisoryId,
        aliases: aliasPool,
        artifactName: e.name,
        artifactType: e.purl ? artifactTypeOfPurl(e.purl.type) : artifactTypeOfEcosystem(e.ecosystem),
        artifactArchitecture: architecture,
        componentName: e.name,
        ...PACKAGE_COMPONENT,
        author: 'import:osv',
        events,
        ...(affected ? { affected } : {}),
      });
    }
  }
  return mergeRows(rows);
}

export function parseOsvBytes(file: string, bytes: Uint8Array, opts: FormatOptions): ParsedFile {
  return { file, advisories: parseOsvRecord(file, parseJsonBytes(file, bytes), opts) };
}

/** Every OSV record under `path` (a .json file, a directory of them, or an all.zip), one ParsedFile each. */
export async function* readOsvAdvisories(path: string, opts: FormatOptions): AsyncGenerator<ParsedFile> {
  for await (const source of readJsonSources(path)) yield parseOsvBytes(source.file, source.bytes, opts);
}
