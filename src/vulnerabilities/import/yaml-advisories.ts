// The advisory YAML documents (one <package>.advisories.yaml per origin
// package, schema 2.x) → NormalizedAdvisory rows. Strict like the schema's
// own decoder (KnownFields) and validator: an unknown key, a bad id or alias,
// a duplicate, a future timestamp, an empty list or an unknown type refuses
// the whole file with the line of the offending node. Rows: one per
// vulnerability × (sub)package component × architecture (the split rule of
// docs/advisories.md).
import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Node, type Scalar, type YAMLMap } from 'yaml';
import { ALIAS_ID, CGA_ID } from '../advisory-ids.js';
import { parseSimpleYaml } from './yaml-fast-path.js';
import { parseBoundedYaml } from './yaml-bounded-parse.js';
import { EVENT_KINDS, type EventKind, FALSE_POSITIVE_TYPES } from '../event-kinds.js';
import { ImportError, type JsonObject, type NormalizedAdvisory, type NormalizedEvent, PACKAGE_COMPONENT } from './normalized-advisory.js';

export interface YamlParseOptions {
  /** Architectures each row is written for (the YAML names none). */
  architectures: readonly string[];
  /** The documents' package namespace ('' when unknown). */
  namespace: string;
  /** "Now" for the future-timestamp rule (ms since the epoch); default Date.now(). */
  now?: number;
  /** Author of the rows and events (default import:yaml). */
  author?: string;
  /** false: always use the general YAML parser (tests compare both paths). */
  fastPath?: boolean;
}

/** YAML files larger than this are refused before parsing (the parser's memory is several times the text). */
export const MAX_YAML_BYTES = 16 * 1024 * 1024;
const MAX_STRING = 4096;
const FUTURE_SLACK_MS = 2 * 3600 * 1000;
// Every kind but patched, which the YAML schema has no word for.
const YAML_EVENT_TYPES: readonly EventKind[] = EVENT_KINDS.filter((k) => k !== 'patched');
const NOTE_REQUIRED = new Set<EventKind>(['analysis-not-planned', 'fix-not-planned', 'pending-upstream-fix']);
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
/** An apk version with its release (epoch) suffix, e.g. 1.2.0-r2, 2.39_p1-r0, 1.0_rc3-r1. */
const APK_VERSION = /^\d+(\.\d+)*[a-z]?(_(alpha|beta|pre|rc|cvs|svn|git|hg|p)\d*)*(~[0-9a-f]+)?-r\d+$/;
const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,254}$/;
const SCHEMA_VERSION = /^(\d+)(\.\d+){0,2}$/;

/** Parses one document; throws ImportError(file, line, message) on the first rule it breaks. */
export function parseYamlAdvisories(file: string, content: string | Uint8Array, opts: YamlParseOptions): NormalizedAdvisory[] {
  const p = new YamlReader(file);
  const text = p.decode(content);
  const fast = opts.fastPath === false ? undefined : parseSimpleYaml(text);
  if (fast) {
    p.lines = fast.lines;
    return p.document(fast.root, opts);
  }
  const { doc, lines } = parseBoundedYaml(file, text);
  p.lines = lines;
  return p.document(doc.contents, opts);
}

type Fields = Map<string, { key: Scalar; value: Node | null }>;

class YamlReader {
  lines?: LineCounter;
  constructor(private readonly file: string) {}

  decode(content: string | Uint8Array): string {
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
    if (size > MAX_YAML_BYTES) throw new ImportError(this.file, 0, `file is ${size} bytes, over the ${MAX_YAML_BYTES}-byte limit`);
    const text = typeof content === 'string' ? content : new TextDecoder('utf-8', { fatal: false }).decode(content);
    const nul = text.indexOf('\u0000');
    if (nul >= 0) throw new ImportError(this.file, text.slice(0, nul).split('\n').length, 'NUL byte in the file');
    return text;
  }

  line(node: Node | null | undefined): number {
    const offset = node?.range?.[0];
    if (offset === undefined || !this.lines) return 0;
    return this.lines.linePos(offset).line;
  }

  fail(node: Node | null | undefined, message: string): never {
    throw new ImportError(this.file, this.line(node), message);
  }

  map(node: Node | null, what: string, allowed: readonly string[], required: readonly string[]): Fields {
    if (isAlias(node)) this.fail(node, `${what}: YAML aliases are not allowed`);
    if (!isMap(node)) this.fail(node, `${what} must be a mapping`);
    const fields: Fields = new Map();
    for (const pair of (node as YAMLMap<Scalar, Node | null>).items) {
      const key = pair.key;
      if (!isScalar(key) || typeof key.value !== 'string') this.fail(node, `${what}: keys must be strings`);
      if (!allowed.includes(key.value)) this.fail(key, `${what}: unknown key "${clip(key.value)}" (allowed: ${allowed.join(', ')})`);
      fields.set(key.value, { key, value: pair.value ?? null });
    }
    for (const name of required) if (!fields.has(name)) this.fail(node, `${what}: missing "${name}"`);
    return fields;
  }

  string(node: Node | null, what: string, at: Node | null): string {
    if (isAlias(node)) this.fail(node, `${what}: YAML aliases are not allowed`);
    if (!isScalar(node) || typeof node.value !== 'string') this.fail(node ?? at, `${what} must be a string`);
    const v = node.value as string;
    if (v.length > MAX_STRING) this.fail(node, `${what} is longer than ${MAX_STRING} characters`);
    return v;
  }

  nonEmpty(node: Node | null, what: string, at: Node | null): string {
    const v = this.string(node, what, at);
    if (v === '') this.fail(node ?? at, `${what} must not be empty`);
    return v;
  }

  seq(node: Node | null, what: string, at: Node | null): Node[] {
    if (isAlias(node)) this.fail(node, `${what}: YAML aliases are not allowed`);
    if (!isSeq(node)) this.fail(node ?? at, `${what} must be a list`);
    return node.items as Node[];
  }

  document(root: Node | null, opts: YamlParseOptions): NormalizedAdvisory[] {
    if (root === null) this.fail(null, 'empty document');
    const top = this.map(root, 'document', ['schema-version', 'package', 'advisories'], ['package', 'advisories']);
    const sv = top.get('schema-version');
    if (!sv) this.fail(root, 'schema-version is missing (version 1 documents are not supported; 2.x is)');
    const version = this.string(sv.value, 'schema-version', sv.key);
    const m = SCHEMA_VERSION.exec(version);
    if (!m) this.fail(sv.value ?? sv.key, `schema-version "${clip(version)}" is not a version`);
    if (m[1] !== '2') this.fail(sv.value, `schema-version ${version} is not supported (2.x is)`);
    const pkg = top.get('package')!;
    const name = this.nonEmpty(this.map(pkg.value, 'package', ['name'], ['name']).get('name')?.value ?? null, 'package.name', pkg.value);
    if (!PACKAGE_NAME.test(name)) this.fail(pkg.value, `package.name "${clip(name)}" is not a package name`);
    const list = top.get('advisories')!;
    const items = this.seq(list.value, 'advisories', list.key);
    if (items.length === 0) this.fail(list.value ?? list.key, 'advisories must not be empty (this file should not exist without advisories)');
    const seen = new Set<string>();
    const rows: NormalizedAdvisory[] = [];
    const now = opts.now ?? Date.now();
    for (const item of items) rows.push(...this.advisory(item, name, seen, now, opts));
    return rows;
  }

  advisory(node: Node, origin: string, seen: Set<string>, now: number, opts: YamlParseOptions): NormalizedAdvisory[] {
    const f = this.map(node, 'advisory', ['id', 'aliases', 'events'], ['id', 'events']);
    const idField = f.get('id')!;
    const id = this.nonEmpty(idField.value, 'id', idField.key);
    if (!CGA_ID.test(id)) this.fail(idField.value, `id "${clip(id)}" is not a CGA id (CGA-xxxx-xxxx-xxxx)`);
    if (seen.has(id)) this.fail(idField.value, `id ${id} is not unique in the file`);
    seen.add(id);
    const aliases: string[] = [];
    const aliasField = f.get('aliases');
    if (aliasField && aliasField.value !== null && !(isScalar(aliasField.value) && aliasField.value.value === null)) {
      const own = new Set<string>();
      for (const a of this.seq(aliasField.value, 'aliases', aliasField.key)) {
        const alias = this.nonEmpty(a, 'alias', aliasField.key);
        if (alias === id) this.fail(a, `alias ${alias} duplicates the advisory's id`);
        if (!ALIAS_ID.test(alias)) this.fail(a, `alias "${clip(alias)}" is not a CVE, GHSA or GO id`);
        if (own.has(alias)) this.fail(a, `alias ${alias} is listed twice`);
        if (seen.has(alias)) this.fail(a, `alias ${alias} is not unique in the file`);
        own.add(alias);
        seen.add(alias);
        aliases.push(alias);
      }
    }
    aliases.sort();
    const eventsField = f.get('events')!;
    const eventNodes = this.seq(eventsField.value, 'events', eventsField.key);
    if (eventNodes.length === 0) this.fail(eventsField.value ?? eventsField.key, `advisory ${id}: events must not be empty`);
    const author = opts.author ?? 'import:yaml';
    const events = eventNodes.map((e) => this.event(e, now, author));
    // Oldest first; Array.prototype.sort is stable, so equal times keep file order.
    events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));

    // Split by the scan/v1 detections' component; events that are not scan/v1 detections go to every row.
    const groups = new Map<
      string,
      { artifactName: string; componentName: string; componentType: string; componentLocation: string; events: NormalizedEvent[] }
    >();
    const shared: NormalizedEvent[] = [];
    for (const e of events) {
      const scan = e.kind === 'detection' ? (e.payload.scanv1 as JsonObject | undefined) : undefined;
      if (!scan) {
        shared.push(e);
        continue;
      }
      const key = JSON.stringify([scan.subpackage, scan.component, scan.componentLocation]);
      let g = groups.get(key);
      if (!g) {
        g = {
          artifactName: scan.subpackage as string,
          componentName: scan.component as string,
          componentType: scan.componentType as string,
          componentLocation: scan.componentLocation as string,
          events: [],
        };
        groups.set(key, g);
      }
      g.events.push(e);
    }
    if (groups.size === 0) {
      groups.set('', { artifactName: origin, componentName: origin, ...PACKAGE_COMPONENT, events: [] });
    }
    const rows: NormalizedAdvisory[] = [];
    for (const arch of opts.architectures) {
      for (const g of groups.values()) {
        const own = new Set(g.events);
        rows.push({
          origin,
          packageNamespace: opts.namespace,
          advisoryId: id,
          aliases: [...aliases],
          artifactName: g.artifactName,
          artifactType: 'apk',
          artifactArchitecture: arch,
          componentName: g.componentName,
          componentType: g.componentType,
          componentLocation: g.componentLocation,
          author,
          events: events.filter((e) => own.has(e) || shared.includes(e)),
        });
      }
    }
    return rows;
  }

  event(node: Node, now: number, author: string): NormalizedEvent {
    const f = this.map(node, 'event', ['timestamp', 'type', 'data'], ['timestamp', 'type']);
    const ts = f.get('timestamp')!;
    const time = this.timestamp(ts.value, ts.key, now);
    const typeField = f.get('type')!;
    const kind = this.nonEmpty(typeField.value, 'event type', typeField.key) as EventKind;
    if (!YAML_EVENT_TYPES.includes(kind)) this.fail(typeField.value, `unknown event type "${clip(kind)}" (one of ${YAML_EVENT_TYPES.join(', ')})`);
    const data = f.get('data');
    const dataNode = data && !(isScalar(data.value) && (data.value.value === null || data.value.value === '')) ? data.value : null;
    const payload = this.payload(kind, dataNode, data?.key ?? typeField.key);
    return { time, kind, payload, author, reviewer: '', reviewState: 'REVIEW_STATE_APPROVED' };
  }

  timestamp(node: Node | null, at: Node, now: number): string {
    const v = this.nonEmpty(node, 'timestamp', at);
    const m = RFC3339.exec(v);
    const ms = m ? Date.parse(v.replace(' ', 'T')) : Number.NaN;
    if (!m || Number.isNaN(ms)) this.fail(node, `timestamp "${clip(v)}" is not an RFC 3339 time`);
    if (ms > now + FUTURE_SLACK_MS) this.fail(node, `timestamp ${v} is in the future`);
    return new Date(ms).toISOString();
  }

  note(f: Fields, required: boolean, at: Node | null): JsonObject {
    const n = f.get('note');
    const note = n ? this.string(n.value, 'note', n.key) : '';
    if (required && note === '') this.fail(at, 'note must not be empty');
    return note === '' ? {} : { note };
  }

  payload(kind: EventKind, data: Node | null, at: Node): JsonObject {
    switch (kind) {
      case 'detection': {
        if (!data) this.fail(at, 'detection: data is required');
        const d = this.map(data, 'detection data', ['type', 'data'], ['type']);
        const t = d.get('type')!;
        const type = this.nonEmpty(t.value, 'detection type', t.key);
        const inner = d.get('data');
        const innerNode = inner && !(isScalar(inner.value) && (inner.value.value === null || inner.value.value === '')) ? inner.value : null;
        if (type === 'manual') {
          if (innerNode) this.fail(innerNode, 'detection type manual takes no data');
          return { manual: {} };
        }
        if (type === 'nvdapi') {
          if (!innerNode) this.fail(inner?.key ?? data, 'nvdapi detection: data is required');
          const n = this.map(innerNode, 'nvdapi detection data', ['cpeSearched', 'cpeFound'], ['cpeSearched', 'cpeFound']);
          const cpe = (k: string) => {
            const e = n.get(k)!;
            const v = this.nonEmpty(e.value, k, e.key);
            if (!v.startsWith('cpe:2.3:')) this.fail(e.value, `${k} "${clip(v)}" is not a CPE 2.3 name`);
            return v;
          };
          return { nvdapi: { cpeSearched: cpe('cpeSearched'), cpeFound: cpe('cpeFound') } };
        }
        if (type === 'scan/v1') {
          if (!innerNode) this.fail(inner?.key ?? data, 'scan/v1 detection: data is required');
          const keys = ['subpackageName', 'componentID', 'componentName', 'componentVersion', 'componentType', 'componentLocation', 'scanner'];
          const s = this.map(innerNode, 'scan/v1 detection data', keys, keys);
          const get = (k: string) => {
            const e = s.get(k)!;
            return this.nonEmpty(e.value, k, e.key);
          };
          const scanner = get('scanner');
          if (scanner !== 'grype') this.fail(s.get('scanner')!.value, `scanner "${clip(scanner)}" is not one of grype`);
          return {
            scanv1: {
              scanner,
              subpackage: get('subpackageName'),
              componentId: get('componentID'),
              component: get('componentName'),
              componentVersion: get('componentVersion'),
              componentType: get('componentType'),
              componentLocation: get('componentLocation'),
            },
          };
        }
        return this.fail(t.value, `unknown detection type "${clip(type)}" (one of manual, nvdapi, scan/v1)`);
      }
      case 'fixed': {
        if (!data) this.fail(at, 'fixed: data with fixed-version is required');
        const f = this.map(data, 'fixed data', ['fixed-version'], ['fixed-version']);
        const v = f.get('fixed-version')!;
        const version = this.nonEmpty(v.value, 'fixed-version', v.key);
        if (!APK_VERSION.test(version)) this.fail(v.value, `fixed-version "${clip(version)}" is not an apk version with its release (e.g. 1.2.0-r2)`);
        return { fixedVersion: version };
      }
      case 'false-positive-determination': {
        if (!data) this.fail(at, 'false-positive-determination: data with type is required');
        const f = this.map(data, 'false-positive-determination data', ['type', 'note'], ['type']);
        const t = f.get('type')!;
        const word = this.nonEmpty(t.value, 'false-positive type', t.key);
        const fp = FALSE_POSITIVE_TYPES.find((x) => x.yaml === word);
        if (!fp) this.fail(t.value, `unknown false-positive type "${clip(word)}" (one of ${FALSE_POSITIVE_TYPES.map((x) => x.yaml).join(', ')})`);
        return { type: fp.proto, ...this.note(f, false, data) };
      }
      default: {
        const required = NOTE_REQUIRED.has(kind);
        if (!data) {
          if (required) this.fail(at, `${kind}: data with a note is required`);
          return {};
        }
        return this.note(this.map(data, `${kind} data`, ['note'], []), required, data);
      }
    }
  }
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
