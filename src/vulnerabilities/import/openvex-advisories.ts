// OpenVEX documents (v0.2.0; the older 0.0.x string products are read too)
// → normalized advisories: a row per statement × product (× subcomponent),
// the statement's status as the event. A not_affected justification maps to
// a false-positive type by the reverse of FALSE_POSITIVE_TYPES; three types
// share `vulnerable_code_not_present`, which reads back as
// TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE (what the words say: the code
// is not in the package).
import { packageKey, purlEcosystem, purlPackageName, schemeOfEcosystem } from '../affected/ecosystem-keys.js';
import { ALIAS_ID, CGA_ID, mintAdvisoryId } from '../advisory-ids.js';
import { FALSE_POSITIVE_TYPES } from '../event-kinds.js';
import { importedEvent, mergeRows, type FormatOptions } from './imported-event.js';
import { JsonFields, parseJsonBytes } from './json-input.js';
import { readJsonSources } from './json-sources.js';
import { PACKAGE_COMPONENT, type JsonObject, type JsonValue, type NormalizedAdvisory, type NormalizedEvent, type ParsedFile } from './normalized-advisory.js';
import { artifactTypeOfPurl, componentTypeOfPurl, parsePurl, type Purl } from './purl.js';

const MAX_STATEMENTS = 200_000;
const MAX_PRODUCTS = 10_000;

/** OpenVEX justification → false-positive type (proto enum name). */
export const JUSTIFICATION_TYPES: Readonly<Record<string, string>> = {
  component_not_present: 'TYPE_COMPONENT_VULNERABILITY_MISMATCH',
  vulnerable_code_not_present: 'TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE',
  vulnerable_code_not_in_execute_path: 'TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH',
  vulnerable_code_cannot_be_controlled_by_adversary: 'TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY',
  inline_mitigations_already_exist: 'TYPE_INLINE_MITIGATIONS_EXIST',
};
// Every justification the table of types names must be readable.
for (const t of FALSE_POSITIVE_TYPES) if (!JUSTIFICATION_TYPES[t.vex]) throw new Error(`no false-positive type for ${t.vex}`);

function withNote(payload: JsonObject, note: string | undefined): JsonObject {
  return note ? { ...payload, note } : payload;
}

function statementEvent(f: JsonFields, s: JsonObject, where: string, time: string, product: Purl): NormalizedEvent {
  const status = f.string(s.status, `${where}.status`);
  switch (status) {
    case 'fixed':
      return importedEvent('openvex', time, 'fixed', product.version ? { fixedVersion: product.version } : {});
    case 'not_affected': {
      const justification = f.optionalString(s.justification, `${where}.justification`);
      const impact = f.optionalString(s.impact_statement, `${where}.impact_statement`);
      if (!justification && !impact) f.fail(where, 'not_affected needs a justification or an impact_statement');
      const type = justification ? JUSTIFICATION_TYPES[justification] : undefined;
      if (justification && !type) f.fail(`${where}.justification`, `unknown justification ${justification}`);
      return importedEvent('openvex', time, 'false-positive-determination', withNote(type ? { type } : {}, impact));
    }
    case 'affected':
      return importedEvent('openvex', time, 'true-positive-determination', withNote({}, f.optionalString(s.action_statement, `${where}.action_statement`)));
    case 'under_investigation':
      return importedEvent('openvex', time, 'detection', { manual: {} });
    default:
      return f.fail(`${where}.status`, `unknown status ${status}`);
  }
}

/** A product or subcomponent: its @id (or identifiers.purl) as a purl. */
function productPurl(f: JsonFields, v: JsonValue, where: string): Purl {
  let text: string;
  if (typeof v === 'string') text = v;
  else {
    const p = f.object(v, where);
    const id = f.optionalString(p['@id'], `${where}.@id`);
    const identifiers = f.optionalObject(p.identifiers, `${where}.identifiers`);
    const fromIdentifiers = f.optionalString(identifiers?.purl, `${where}.identifiers.purl`);
    text = id && parsePurl(id) ? id : (fromIdentifiers ?? id ?? '');
  }
  const purl = parsePurl(text);
  if (!purl) f.fail(where, `not a package URL: ${text}`);
  return purl;
}

export function parseOpenVex(file: string, value: JsonValue, opts: FormatOptions): NormalizedAdvisory[] {
  const f = new JsonFields(file);
  const doc = f.object(value, 'document');
  const context = f.string(doc['@context'], '@context');
  if (!context.startsWith('https://openvex.dev/ns')) f.fail('@context', `not an OpenVEX document: ${context}`);
  const docTime = f.time(doc.timestamp, 'timestamp');
  const statements = f.array(doc.statements, 'statements');
  if (statements.length > MAX_STATEMENTS) f.fail('statements', `more than ${MAX_STATEMENTS} statements`);
  const rows: NormalizedAdvisory[] = [];
  statements.forEach((sv, si) => {
    const where = `statements[${si}]`;
    const s = f.object(sv, where);
    const vuln = typeof s.vulnerability === 'string' ? { name: s.vulnerability } : f.object(s.vulnerability, `${where}.vulnerability`);
    const name = f.optionalString(vuln.name, `${where}.vulnerability.name`);
    const atId = f.optionalString(vuln['@id'], `${where}.vulnerability.@id`);
    const listed = f.optionalArray(vuln.aliases, `${where}.vulnerability.aliases`).map((x, i) => f.string(x, `${where}.vulnerability.aliases[${i}]`));
    const ids = [name, atId, ...listed].filter((x): x is string => !!x);
    if (ids.length === 0) f.fail(`${where}.vulnerability`, 'has no name');
    const cga = ids.find((x) => CGA_ID.test(x));
    const aliases = ids.filter((x) => x !== cga && ALIAS_ID.test(x));
    const time = s.timestamp === undefined ? docTime : f.time(s.timestamp, `${where}.timestamp`);
    const products = f.array(s.products, `${where}.products`);
    if (products.length > MAX_PRODUCTS) f.fail(`${where}.products`, `more than ${MAX_PRODUCTS} products`);
    products.forEach((pv, pi) => {
      const pWhere = `${where}.products[${pi}]`;
      const product = productPurl(f, pv, pWhere);
      const event = statementEvent(f, s, where, time, product);
      const subs = typeof pv === 'string' ? [] : f.optionalArray(f.object(pv, pWhere).subcomponents, `${pWhere}.subcomponents`);
      const components = subs.map((c, ci) => {
        const purl = productPurl(f, c, `${pWhere}.subcomponents[${ci}]`);
        return { componentName: purl.name, componentType: componentTypeOfPurl(purl.type), componentLocation: purl.subpath ? `/${purl.subpath}` : '' };
      });
      if (components.length === 0) components.push({ componentName: product.name, ...PACKAGE_COMPONENT });
      const advisoryId = cga ?? mintAdvisoryId(['openvex', ids[0], product.name]);
      const arch = product.qualifiers.arch;
      // A language package (npm, PyPI, …) is matched by its purl's ecosystem; apk products by --namespace, as YAML and secdb.
      const ecosystem = product.type === 'apk' ? '' : purlEcosystem(product);
      const affected = schemeOfEcosystem(ecosystem) ? { affected: { ecosystem, package: packageKey(ecosystem, purlPackageName(product)), intervals: [] } } : {};
      for (const architecture of arch ? [arch] : opts.arch)
        for (const component of components)
          rows.push({
            origin: product.name,
            packageNamespace: opts.namespace || (product.type === 'apk' ? product.namespace : ''),
            advisoryId,
            aliases,
            artifactName: product.name,
            artifactType: artifactTypeOfPurl(product.type),
            artifactArchitecture: architecture,
            ...component,
            author: 'import:openvex',
            events: [event],
            ...affected,
          });
    });
  });
  return mergeRows(rows);
}

export function parseOpenVexBytes(file: string, bytes: Uint8Array, opts: FormatOptions): ParsedFile {
  return { file, advisories: parseOpenVex(file, parseJsonBytes(file, bytes), opts) };
}

/** Every OpenVEX document under `path` (a file, a directory of *.json, or a zip of them). */
export async function* readOpenVexAdvisories(path: string, opts: FormatOptions): AsyncGenerator<ParsedFile> {
  for await (const source of readJsonSources(path)) yield parseOpenVexBytes(source.file, source.bytes, opts);
}
