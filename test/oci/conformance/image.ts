// Port of conformance/image.go (distribution-spec v1.1.1): the manifest, index,
// descriptor and image-config shapes the suite pushes, and a marshaller that
// writes them byte for byte as Go's json.MarshalIndent(v, "", "\t") does, so the
// digests the port pushes are the ones the Go suite would push for the same input.
// Go's rules reproduced here: struct field order, `omitempty` (zero value left
// out), nil slices as `null` (`newUnspecifiedField` has no omitempty), []byte as
// standard base64, map keys sorted, and <, >, &, U+2028, U+2029 escaped.
import { createHash } from 'node:crypto';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  urls?: string[];
  annotations?: Record<string, string>;
  /** Go []byte: written as base64. */
  data?: Buffer;
  platform?: { architecture: string; os: string; 'os.version'?: string; 'os.features'?: string[]; variant?: string };
  artifactType?: string;
  /** Not in image-spec: registries must store and serve manifests carrying it. */
  newUnspecifiedField?: Buffer;
}

export interface Manifest {
  schemaVersion: number;
  mediaType?: string;
  artifactType?: string;
  config: Descriptor;
  layers: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

export interface Index {
  schemaVersion: number;
  mediaType?: string;
  artifactType?: string;
  manifests: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

export interface ImageConfig {
  author?: string;
  architecture: string;
  variant?: string;
  os: string;
  rootfs: { type: string; diff_ids: string[] };
}

type Json = string | number | null | Json[] | { [key: string]: Json };

/** Go's `omitempty` for the kinds used here: "", 0, empty or absent slice/map/bytes. */
function empty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0) return true;
  if (Array.isArray(v) || Buffer.isBuffer(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function sortedMap(m: Record<string, string> | undefined): Json {
  if (m === undefined) return null;
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/** Builds the JSON value in Go's field order; `fields` lists [name, value, omitempty]. */
function struct(fields: Array<[string, Json | undefined, boolean]>): Json {
  const out: { [key: string]: Json } = {};
  for (const [name, value, omitEmpty] of fields) {
    if (omitEmpty && empty(value)) continue;
    out[name] = value === undefined ? null : value;
  }
  return out;
}

function bytes(b: Buffer | undefined): Json {
  return b === undefined ? null : b.toString('base64');
}

function descriptor(d: Descriptor): Json {
  const p = d.platform;
  return struct([
    ['mediaType', d.mediaType, false],
    ['digest', d.digest, false],
    ['size', d.size, false],
    ['urls', d.urls, true],
    ['annotations', sortedMap(d.annotations), true],
    ['data', bytes(d.data), true],
    [
      'platform',
      p &&
        struct([
          ['architecture', p.architecture, false],
          ['os', p.os, false],
          ['os.version', p['os.version'], true],
          ['os.features', p['os.features'], true],
          ['variant', p.variant, true],
        ]),
      true,
    ],
    ['artifactType', d.artifactType, true],
    ['newUnspecifiedField', bytes(d.newUnspecifiedField), false],
  ]);
}

function manifestJson(m: Manifest): Json {
  return struct([
    ['schemaVersion', m.schemaVersion, false],
    ['mediaType', m.mediaType, true],
    ['artifactType', m.artifactType, true],
    ['config', descriptor(m.config), false],
    ['layers', m.layers.map(descriptor), false],
    ['subject', m.subject && descriptor(m.subject), true],
    ['annotations', sortedMap(m.annotations), true],
  ]);
}

function indexJson(i: Index): Json {
  return struct([
    ['schemaVersion', i.schemaVersion, false],
    ['mediaType', i.mediaType, true],
    ['artifactType', i.artifactType, true],
    ['manifests', i.manifests.map(descriptor), false],
    ['subject', i.subject && descriptor(i.subject), true],
    ['annotations', sortedMap(i.annotations), true],
  ]);
}

function imageJson(c: ImageConfig): Json {
  return struct([
    ['author', c.author, true],
    ['architecture', c.architecture, false],
    ['variant', c.variant, true],
    ['os', c.os, false],
    [
      'rootfs',
      struct([
        ['type', c.rootfs.type, false],
        ['diff_ids', c.rootfs.diff_ids, false],
      ]),
      false,
    ],
  ]);
}

/** json.MarshalIndent(v, "", "\t"): same layout as JSON.stringify with a tab, plus Go's HTML-safe escapes. */
function marshalIndent(v: Json): Buffer {
  const text = JSON.stringify(v, null, '\t').replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Buffer.from(text, 'utf8');
}

export const marshalManifest = (m: Manifest): Buffer => marshalIndent(manifestJson(m));
export const marshalIndex = (i: Index): Buffer => marshalIndent(indexJson(i));
export const marshalImageConfig = (c: ImageConfig): Buffer => marshalIndent(imageJson(c));

/** godigest.FromBytes: the canonical sha256 digest. */
export function digestOf(b: Buffer | string): string {
  return `sha256:${createHash('sha256').update(b).digest('hex')}`;
}
