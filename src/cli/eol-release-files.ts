// endoflife.date release files, as an operator mirrors them, parsed to
// LifecycleProduct: v1 (/api/v1/products/<p>: {schema_version, result:{name,
// aliases, releases[…]}}) and v0 (/api/<p>.json: [{cycle, releaseDate, eol,
// latest, lts, …}], the product named by the file). No maintained library
// reads these files, so this is written by hand over the advisory importer's
// bounded JSON reader (size, UTF-8, nesting, NUL, errors naming the file and
// the JSON path of the bad value). It lives in the CLI because the registry
// (which owns the tables) may not import the vulnerabilities domain.
import { hash } from 'node:crypto';
import { basename } from 'node:path';
import { IMAGE_NAME, LIFECYCLE_NAME, type LifecycleProduct, type LifecycleRelease, MAX_ALIASES, MAX_RELEASES } from '../registry/eol/lifecycle-product.js';
import { JsonFields, parseJsonBytes } from '../vulnerabilities/import/json-input.js';
import type { JsonObject, JsonValue } from '../vulnerabilities/import/normalized-advisory.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

class EolFields extends JsonFields {
  name(v: JsonValue | undefined, where: string): string {
    const s = this.string(v, where);
    if (!LIFECYCLE_NAME.test(s)) this.fail(where, `${JSON.stringify(s.slice(0, 80))} is not a name (letters, digits, ".", "_", "+", "-", at most 128)`);
    return s;
  }

  /** YYYY-MM-DD (a real day) or '' for null/absent. */
  date(v: JsonValue | undefined, where: string): string {
    if (v === undefined || v === null) return '';
    const s = this.optionalString(v, where) ?? '';
    const m = DATE.exec(s);
    const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
    if (!m || !d || d.getUTCDate() !== Number(m[3]) || d.getUTCMonth() !== Number(m[2]) - 1)
      this.fail(where, `not a date (YYYY-MM-DD): ${JSON.stringify(s.slice(0, 40))}`);
    return s;
  }

  bool(v: JsonValue | undefined, where: string): boolean {
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') this.fail(where, 'must be true or false');
    return v;
  }

  /** A date or a boolean (v0 eol and lts): the date when one is given, and whether the flag holds. */
  dateOrBool(v: JsonValue | undefined, where: string): { date: string; flag: boolean } {
    if (typeof v === 'boolean') return { date: '', flag: v };
    const date = this.date(v, where);
    return { date, flag: date !== '' };
  }

  /** A version text; v0 files may write a number (an integer: a decimal number loses trailing zeros, 3.10 → 3.1). */
  versionText(v: JsonValue | undefined, where: string, required: boolean): string {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) this.fail(where, 'must be a string (a decimal number loses trailing zeros)');
      return String(v);
    }
    if (!required && (v === undefined || v === null)) return '';
    const s = this.string(v, where);
    if (s.length > 128) this.fail(where, 'longer than 128 characters');
    return s;
  }
}

function release(f: EolFields, r: LifecycleRelease, where: string, seen: Set<string>): LifecycleRelease {
  if (!LIFECYCLE_NAME.test(r.name)) f.fail(`${where}`, `${JSON.stringify(r.name.slice(0, 80))} is not a release name`);
  if (seen.has(r.name)) f.fail(where, `release ${JSON.stringify(r.name)} appears twice`);
  seen.add(r.name);
  return r;
}

function parseV1(f: EolFields, doc: JsonObject, sourceSha: string): LifecycleProduct {
  const result = f.object(doc.result, 'result');
  const name = f.name(result.name, 'result.name');
  const aliasValues = f.optionalArray(result.aliases, 'result.aliases');
  if (aliasValues.length > MAX_ALIASES) f.fail('result.aliases', `more than ${MAX_ALIASES} aliases`);
  const aliases = [...new Set(aliasValues.map((a, i) => f.name(a, `result.aliases[${i}]`)))];
  const list = f.array(result.releases, 'result.releases');
  if (list.length > MAX_RELEASES) f.fail('result.releases', `more than ${MAX_RELEASES} releases`);
  const seen = new Set<string>();
  const releases = list.map((v, i) => {
    const w = `result.releases[${i}]`;
    const r = f.object(v, w);
    const eolDate = f.date(r.eolFrom, `${w}.eolFrom`);
    const latest = f.optionalObject(r.latest, `${w}.latest`);
    return release(
      f,
      {
        name: f.versionText(r.name, `${w}.name`, true),
        releaseDate: f.date(r.releaseDate, `${w}.releaseDate`),
        eolDate,
        eol: f.bool(r.isEol, `${w}.isEol`) || eolDate !== '',
        lts: f.bool(r.isLts, `${w}.isLts`),
        ltsFrom: f.date(r.ltsFrom, `${w}.ltsFrom`),
        latestVersion: latest ? f.versionText(latest.name, `${w}.latest.name`, false) : '',
      },
      w,
      seen,
    );
  });
  return { name, aliases, releases, sourceRef: `endoflife.date/v1/${name}`, sourceSha };
}

function parseV0(f: EolFields, file: string, list: JsonValue[], sourceSha: string): LifecycleProduct {
  const name = basename(file).replace(/\.json$/i, '');
  if (!LIFECYCLE_NAME.test(name)) f.fail('(file name)', `a v0 file is named <product>.json; ${JSON.stringify(name.slice(0, 80))} is not a product name`);
  if (list.length > MAX_RELEASES) f.fail('(top level)', `more than ${MAX_RELEASES} releases`);
  const seen = new Set<string>();
  const releases = list.map((v, i) => {
    const w = `[${i}]`;
    const r = f.object(v, w);
    const eol = f.dateOrBool(r.eol, `${w}.eol`);
    const lts = f.dateOrBool(r.lts, `${w}.lts`);
    return release(
      f,
      {
        name: f.versionText(r.cycle, `${w}.cycle`, true),
        releaseDate: f.date(r.releaseDate, `${w}.releaseDate`),
        eolDate: eol.date,
        eol: eol.flag,
        lts: lts.flag,
        ltsFrom: lts.date,
        latestVersion: f.versionText(r.latest, `${w}.latest`, false),
      },
      w,
      seen,
    );
  });
  return { name, aliases: [], releases, sourceRef: `endoflife.date/v0/${name}`, sourceSha };
}

/** One file's product; an ImportError ("file:line: json.path: message") when the file is not one of the two formats. */
export function parseReleaseFile(file: string, bytes: Uint8Array): LifecycleProduct {
  const doc = parseJsonBytes(file, bytes);
  const f = new EolFields(file);
  const sha = hash('sha256', bytes, 'hex');
  if (Array.isArray(doc)) return parseV0(f, file, doc, sha);
  const obj = f.object(doc, '(top level)');
  if (obj.result === undefined) f.fail('(top level)', 'neither an endoflife.date v1 product ({schema_version, result}) nor a v0 release list ([{cycle, …}])');
  return parseV1(f, obj, sha);
}

/** IMAGE=PRODUCT or IMAGE and PRODUCT checked for `berth eol map`. */
export function checkMapping(image: string, product: string): void {
  if (!IMAGE_NAME.test(image) || image.length > 128)
    throw new Error(`${JSON.stringify(image.slice(0, 80))} is not an image name (the last segment of a repo path, e.g. node)`);
  if (product !== '' && !LIFECYCLE_NAME.test(product)) throw new Error(`${JSON.stringify(product.slice(0, 80))} is not a product name`);
}
