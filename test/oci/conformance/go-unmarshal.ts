// What json.Unmarshal checks when the Go suite reads a registry's answer into
// its structs (the referrers index of image.go, setup.go's TagList): a value of
// the wrong JSON type is an error there, so it must be one here, or the port
// would pass a registry the Go suite fails. As in Go, unknown fields are
// ignored, null leaves the zero value, and a key matches its field exactly or,
// failing that, case-insensitively.
import type { Descriptor, Index } from './image.js';

type Obj = Record<string, unknown>;

class UnmarshalError extends Error {}

function field(o: Obj, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : o[key];
}

function object(v: unknown, what: string): Obj | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new UnmarshalError(`cannot unmarshal ${JSON.stringify(v)} into ${what}`);
  return v as Obj;
}

function string(v: unknown, what: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new UnmarshalError(`cannot unmarshal ${JSON.stringify(v)} into ${what} of type string`);
  return v;
}

function int(v: unknown, what: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new UnmarshalError(`cannot unmarshal ${JSON.stringify(v)} into ${what} of type int64`);
  return v;
}

function array<T>(v: unknown, what: string, item: (x: unknown) => T): T[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new UnmarshalError(`cannot unmarshal ${JSON.stringify(v)} into ${what} of type slice`);
  return v.map(item);
}

function stringMap(v: unknown, what: string): Record<string, string> | undefined {
  const o = object(v, what);
  if (o === undefined) return undefined;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, string(x, `${what}[${k}]`)]));
}

function bytes(v: unknown, what: string): Buffer | undefined {
  const s = string(v, what);
  if (s === '') return undefined;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) throw new UnmarshalError(`illegal base64 data in ${what}`);
  return Buffer.from(s, 'base64');
}

function descriptor(v: unknown): Descriptor {
  const o = object(v, 'descriptor') ?? {};
  const p = object(field(o, 'platform'), 'descriptor.platform');
  return {
    mediaType: string(field(o, 'mediaType'), 'descriptor.mediaType'),
    digest: string(field(o, 'digest'), 'descriptor.digest'),
    size: int(field(o, 'size'), 'descriptor.size'),
    urls: array(field(o, 'urls'), 'descriptor.urls', (x) => string(x, 'descriptor.urls[]')),
    annotations: stringMap(field(o, 'annotations'), 'descriptor.annotations'),
    data: bytes(field(o, 'data'), 'descriptor.data'),
    platform: p && {
      architecture: string(field(p, 'architecture'), 'platform.architecture'),
      os: string(field(p, 'os'), 'platform.os'),
      'os.version': string(field(p, 'os.version'), 'platform.os.version'),
      'os.features': array(field(p, 'os.features'), 'platform.os.features', (x) => string(x, 'platform.os.features[]')),
      variant: string(field(p, 'variant'), 'platform.variant'),
    },
    artifactType: string(field(o, 'artifactType'), 'descriptor.artifactType'),
    newUnspecifiedField: bytes(field(o, 'newUnspecifiedField'), 'descriptor.newUnspecifiedField'),
  };
}

/** json.Unmarshal(body, &index): throws where Go returns an error. */
export function unmarshalIndex(text: string): Index {
  const o = object(JSON.parse(text), 'index') ?? {};
  const subject = field(o, 'subject');
  return {
    schemaVersion: int(field(o, 'schemaVersion'), 'index.schemaVersion'),
    mediaType: string(field(o, 'mediaType'), 'index.mediaType'),
    artifactType: string(field(o, 'artifactType'), 'index.artifactType'),
    manifests: array(field(o, 'manifests'), 'index.manifests', descriptor),
    subject: subject === undefined || subject === null ? undefined : descriptor(subject),
    annotations: stringMap(field(o, 'annotations'), 'index.annotations'),
  };
}

/** json.Unmarshal(body, &TagList{}): the tags, throwing where Go returns an error. */
export function unmarshalTagList(text: string): string[] {
  const o = object(JSON.parse(text), 'TagList') ?? {};
  string(field(o, 'name'), 'TagList.name');
  return array(field(o, 'tags'), 'TagList.tags', (x) => string(x, 'TagList.tags[]'));
}
