// OCI content descriptors read from a manifest body, checked as the image
// spec writes them: a media type (RFC 6838 name), a sha256/sha512 digest and
// a non-negative integer size are required; urls, annotations, artifactType
// and (in indexes) platform are optional and type-checked when present.
// Unknown fields are ignored, as the spec requires.
import { parseDigest } from './digest.js';
import { invalid, ManifestRejected } from './manifest-failure.js';
import { isMediaTypeName } from './media-types.js';

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
  urls?: string[];
  platform?: Platform;
}

export type JsonObject = Record<string, unknown>;

const MAX_URLS = 16;
const MAX_URL_LENGTH = 2048;
// GOOS / GOARCH / variant values: short words. Stored in columns, so bounded
// and free of NUL (PostgreSQL text cannot hold it).
const PLATFORM_WORD = /^[A-Za-z0-9._+-]{1,64}$/;

/** A GOOS, GOARCH or variant value Berth stores. */
export function isPlatformWord(v: unknown): v is string {
  return typeof v === 'string' && PLATFORM_WORD.test(v);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An own property: a body's `constructor` or `__proto__` key never reads Object's. */
export function own(o: JsonObject, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function mediaTypeField(v: unknown, field: string): string {
  if (typeof v !== 'string' || v === '') throw invalid(field, 'a media type is required');
  if (!isMediaTypeName(v)) throw invalid(field, 'must be a media type name (RFC 6838 type/subtype, no parameters)');
  return v;
}

/** An optional artifactType: absent or "" means none. */
export function artifactTypeField(v: unknown, field: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  return mediaTypeField(v, field);
}

export function annotationsField(v: unknown, field: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalid(field, 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') throw invalid(field, 'values must be strings');
    out[k] = value;
  }
  return out;
}

function urlsField(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_URLS) throw invalid(field, `must be an array of at most ${MAX_URLS} URLs`);
  return v.map((u, i) => {
    const ok = typeof u === 'string' && u.length <= MAX_URL_LENGTH && URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) && !u.includes('#');
    if (!ok) throw invalid(`${field}[${i}]`, 'must be an http or https URL without a fragment');
    return u;
  });
}

function platformWord(v: unknown, field: string, required: boolean): string | undefined {
  if (!required && (v === undefined || v === '')) return undefined;
  if (!isPlatformWord(v)) throw invalid(field, 'must be a word of letters, digits, ".", "_", "+" or "-" (at most 64)');
  return v;
}

function platformField(v: unknown, field: string): Platform | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalid(field, 'must be an object');
  const os = platformWord(own(v, 'os'), `${field}.os`, true) as string;
  const architecture = platformWord(own(v, 'architecture'), `${field}.architecture`, true) as string;
  const variant = platformWord(own(v, 'variant'), `${field}.variant`, false);
  return variant === undefined ? { os, architecture } : { os, architecture, variant };
}

/** Reads the descriptor at `field`; `withPlatform` for index entries. */
export function descriptorField(v: unknown, field: string, withPlatform = false): Descriptor {
  if (!isObject(v)) throw invalid(field, 'must be a descriptor object');
  const mediaType = mediaTypeField(own(v, 'mediaType'), `${field}.mediaType`);
  const digest = own(v, 'digest');
  if (typeof digest !== 'string' || !parseDigest(digest)) {
    throw new ManifestRejected({
      code: 'DIGEST_INVALID',
      message: `${field}.digest: must be sha256:<64 hex> or sha512:<128 hex>`,
      detail: { field: `${field}.digest` },
    });
  }
  const size = own(v, 'size');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw invalid(`${field}.size`, 'must be a non-negative integer');
  const out: Descriptor = { mediaType, digest, size };
  const artifactType = artifactTypeField(own(v, 'artifactType'), `${field}.artifactType`);
  if (artifactType !== undefined) out.artifactType = artifactType;
  const annotations = annotationsField(own(v, 'annotations'), `${field}.annotations`);
  if (annotations !== undefined) out.annotations = annotations;
  const urls = urlsField(own(v, 'urls'), `${field}.urls`);
  if (urls !== undefined) out.urls = urls;
  const data = own(v, 'data');
  if (data !== undefined && data !== null && typeof data !== 'string') throw invalid(`${field}.data`, 'must be base64 text');
  if (withPlatform) {
    const platform = platformField(own(v, 'platform'), `${field}.platform`);
    if (platform !== undefined) out.platform = platform;
  }
  return out;
}
