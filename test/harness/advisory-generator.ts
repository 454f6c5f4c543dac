// A seeded generator of advisory feeds for tests and benchmarks: the truth as
// NormalizedAdvisory rows (one row per CGA id per document, so the YAML and the
// rows map 1:1), and renderYaml to write a document as <origin>.advisories.yaml.
// Same seed, same feed; no Math.random. Every YAML event type, detection type
// and false-positive type appears once the feed has a few advisories (7 or more).
import { stringify } from 'yaml';
import { mintAdvisoryId } from '../../src/vulnerabilities/advisory-ids.js';
import { EVENT_KINDS, type EventKind, FALSE_POSITIVE_TYPES } from '../../src/vulnerabilities/event-kinds.js';
import { type JsonObject, type NormalizedAdvisory, type NormalizedEvent, PACKAGE_COMPONENT } from '../../src/vulnerabilities/import/normalized-advisory.js';

export interface GeneratorOptions {
  documents: number;
  /** Advisories per document (default 3). */
  advisoriesPerDocument?: number;
  /** Events per advisory, at least 1 (default 4; the first is always a detection). */
  eventsPerAdvisory?: number;
  /** Share of advisories about a subpackage component (scan/v1 detections), 0–1 (default 0.5). */
  subpackageShare?: number;
  /** Events happen between this time and a year later (default 2024-01-01T00:00:00Z: always in the past). */
  since?: string;
}

export interface GeneratedDocument {
  origin: string;
  advisories: NormalizedAdvisory[];
}

export interface GeneratedFeed {
  documents: GeneratedDocument[];
}

/** mulberry32: a small, fast, seeded PRNG returning [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['age', 'curl', 'glibc', 'nginx', 'openssl', 'python', 'redis', 'zlib', 'busybox', 'git', 'node', 'ruby', 'perl', 'libxml', 'sqlite'];
const SUFFIXES = ['dev', 'doc', 'libs', 'utils', 'compat', 'static'];
const COMPONENTS = [
  { componentName: 'stdlib', componentType: 'go-module', location: '/usr/bin/' },
  { componentName: 'golang.org/x/net', componentType: 'go-module', location: '/usr/bin/' },
  { componentName: 'requests', componentType: 'python', location: '/usr/lib/python3.12/site-packages/' },
  { componentName: 'jackson-databind', componentType: 'java-archive', location: '/usr/share/java/' },
  { componentName: 'lodash', componentType: 'npm', location: '/usr/lib/node_modules/' },
];
const ALPHABET = '23456789cfghjmpqrvwx';
// The YAML schema's kinds other than detection (it has no patched).
const NON_DETECTION_KINDS: readonly EventKind[] = EVENT_KINDS.filter((k) => k !== 'detection' && k !== 'patched');
const AUTHOR = 'import:yaml';

export function generateAdvisories(seed: number, opts: GeneratorOptions): GeneratedFeed {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const perDoc = opts.advisoriesPerDocument ?? 3;
  const eventsPer = Math.max(1, opts.eventsPerAdvisory ?? 4);
  const subShare = opts.subpackageShare ?? 0.5;
  const since = Date.parse(opts.since ?? '2024-01-01T00:00:00Z');
  const yearMs = 365 * 24 * 3600 * 1000;
  // Counters make aliases unique in the whole feed and cycle the types so small feeds cover them all.
  let aliasCounter = 0;
  let kindCounter = int(NON_DETECTION_KINDS.length);
  let fpCounter = 0;
  let detectionCounter = 0;
  const documents: GeneratedDocument[] = [];
  for (let d = 0; d < opts.documents; d++) {
    const origin = `${WORDS[d % WORDS.length]}${d >= WORDS.length ? `-${d}` : ''}`;
    const ids = new Set<string>();
    const advisories: NormalizedAdvisory[] = [];
    for (let a = 0; a < perDoc; a++) {
      let advisoryId = mintAdvisoryId(['generator', String(seed), origin, String(a)]);
      for (let k = 0; ids.has(advisoryId); k++) advisoryId = mintAdvisoryId(['generator', String(seed), origin, String(a), String(k)]);
      ids.add(advisoryId);
      const aliases: string[] = [];
      const aliasCount = rnd() < 0.1 ? 0 : 1 + int(3);
      for (let i = 0; i < aliasCount; i++) {
        const n = aliasCounter++;
        const kind = (n + seed) % 3;
        if (kind === 0) aliases.push(`CVE-${2020 + (n % 5)}-${String(10000 + n).padStart(5, '0')}`);
        else if (kind === 1) aliases.push(`GO-${2022 + (n % 3)}-${String(1000 + n).padStart(4, '0')}`);
        else aliases.push(ghsaId(n + seed * 1_000_003));
      }
      aliases.sort();
      const subpackage = rnd() < subShare;
      let artifactName = origin;
      let componentName = origin;
      let componentType: string = PACKAGE_COMPONENT.componentType;
      let componentLocation: string = PACKAGE_COMPONENT.componentLocation;
      if (subpackage) {
        const c = pick(COMPONENTS);
        artifactName = `${origin}-${pick(SUFFIXES)}`;
        componentName = c.componentName;
        componentType = c.componentType;
        componentLocation = `${c.location}${c.componentType === 'go-module' ? artifactName : `${c.componentName.replace(/\W/g, '_')}`}`;
      }
      let time = since + int(yearMs / 1000) * 1000;
      const events: NormalizedEvent[] = [];
      for (let e = 0; e < eventsPer; e++) {
        const event = (kind: EventKind, payload: JsonObject): NormalizedEvent => ({
          time: new Date(time).toISOString(),
          kind,
          payload,
          author: AUTHOR,
          reviewer: '',
          reviewState: 'REVIEW_STATE_APPROVED',
        });
        if (e === 0 || (subpackage && rnd() < 0.2)) {
          if (subpackage) {
            events.push(
              event('detection', {
                scanv1: {
                  scanner: 'grype',
                  subpackage: artifactName,
                  componentId: hex(rnd, 16),
                  component: componentName,
                  componentVersion: `${1 + int(3)}.${int(20)}.${int(10)}`,
                  componentType,
                  componentLocation,
                },
              }),
            );
          } else if (detectionCounter++ % 2 === 0) {
            events.push(event('detection', { manual: {} }));
          } else {
            const v = `${1 + int(9)}.${int(10)}.${int(10)}`;
            events.push(
              event('detection', {
                nvdapi: { cpeSearched: `cpe:2.3:a:*:${origin}:*:*:*:*:*:*:*:*`, cpeFound: `cpe:2.3:a:${origin}:${origin}:${v}:*:*:*:*:*:*:*` },
              }),
            );
          }
        } else {
          const kind = NON_DETECTION_KINDS[kindCounter++ % NON_DETECTION_KINDS.length];
          // The *-not-planned and pending-upstream-fix events carry a note (the schema requires one); the others may.
          const needsNote = kind === 'analysis-not-planned' || kind === 'fix-not-planned' || kind === 'pending-upstream-fix';
          const note =
            needsNote || rnd() < 0.7 ? `note ${d}.${a}.${e}: ${pick(['upstream says so', 'see the changelog', 'needs a rebuild', 'not reachable'])}` : '';
          const withNote = (p: JsonObject): JsonObject => (note ? { ...p, note } : p);
          if (kind === 'fixed') events.push(event(kind, { fixedVersion: `${1 + int(5)}.${int(20)}.${int(10)}-r${int(8)}` }));
          else if (kind === 'false-positive-determination')
            events.push(event(kind, withNote({ type: FALSE_POSITIVE_TYPES[fpCounter++ % FALSE_POSITIVE_TYPES.length].proto })));
          else events.push(event(kind, withNote({})));
        }
        time += (1 + int(30 * 24 * 3600)) * 1000;
      }
      advisories.push({
        origin,
        packageNamespace: '',
        advisoryId,
        aliases,
        artifactName,
        artifactType: 'apk',
        artifactArchitecture: 'x86_64',
        componentName,
        componentType,
        componentLocation,
        author: AUTHOR,
        events,
      });
    }
    documents.push({ origin, advisories });
  }
  return { documents };
}

/** A GHSA id unique for each n: n in base 20 over the 12 letters. */
function ghsaId(n: number): string {
  let v = Math.abs(Math.floor(n));
  let s = '';
  for (let i = 0; i < 12; i++) {
    s = ALPHABET[v % ALPHABET.length] + s;
    v = Math.floor(v / ALPHABET.length);
  }
  return `GHSA-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

function hex(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rnd() * 16).toString(16);
  return s;
}

/** RFC 3339 as the YAML files write it: whole seconds without a fraction. */
function yamlTime(iso: string): string {
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

function yamlEventData(e: NormalizedEvent): Record<string, unknown> | undefined {
  const p = e.payload as Record<string, Record<string, string> | string | undefined>;
  switch (e.kind) {
    case 'detection': {
      if (p.manual) return { type: 'manual' };
      if (p.nvdapi && typeof p.nvdapi === 'object') return { type: 'nvdapi', data: { cpeSearched: p.nvdapi.cpeSearched, cpeFound: p.nvdapi.cpeFound } };
      const s = p.scanv1 as Record<string, string>;
      return {
        type: 'scan/v1',
        data: {
          subpackageName: s.subpackage,
          componentID: s.componentId,
          componentName: s.component,
          componentVersion: s.componentVersion,
          componentType: s.componentType,
          componentLocation: s.componentLocation,
          scanner: s.scanner,
        },
      };
    }
    case 'fixed':
      return { 'fixed-version': p.fixedVersion };
    case 'false-positive-determination': {
      const fp = FALSE_POSITIVE_TYPES.find((t) => t.proto === p.type);
      if (!fp) throw new Error(`unknown false-positive type ${String(p.type)}`);
      return p.note ? { type: fp.yaml, note: p.note } : { type: fp.yaml };
    }
    default:
      return p.note ? { note: p.note } : undefined;
  }
}

/** One document as its <origin>.advisories.yaml (schema 2.0.2). */
export function renderYaml(doc: GeneratedDocument): string {
  const advisories = doc.advisories.map((a) => ({
    id: a.advisoryId,
    ...(a.aliases.length > 0 ? { aliases: a.aliases } : {}),
    events: a.events.map((e) => {
      const data = yamlEventData(e);
      return { timestamp: yamlTime(e.time), type: e.kind, ...(data ? { data } : {}) };
    }),
  }));
  return stringify({ 'schema-version': '2.0.2', package: { name: doc.origin }, advisories }, { lineWidth: 0 });
}
