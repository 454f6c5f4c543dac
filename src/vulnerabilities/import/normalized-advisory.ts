// The one intermediate form every importer produces (YAML, OSV, secdb,
// OpenVEX) and the store writer consumes: an advisory per vulnerability ×
// artifact × architecture × component, with its events. Plain data, so
// parsers stay pure and tests can compare formats with deepEqual.
import type { AdvisoryAffected } from '../affected/affected-ranges.js';
import type { EventKind } from '../event-kinds.js';

/** proto3 JSON of one message: what `payload` holds. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

export interface NormalizedEvent {
  /** When it happened: RFC 3339 UTC with milliseconds (new Date(x).toISOString()). */
  time: string;
  kind: EventKind;
  /**
   * The oneof case's message of berth.vulnerabilities.v2.AdvisoryEvent in
   * proto3 JSON, default values left out: {} for a manual detection is
   * {"manual":{}}; fixed is {"fixedVersion":"1.2.0-r2"}; a false positive
   * {"type":"TYPE_COMPONENT_VULNERABILITY_MISMATCH","note":"…"}.
   */
  payload: JsonObject;
  /** Who made the event; imported events: "import:<format>". */
  author: string;
  /** '' when nobody reviewed it (imported events are published, so approved by their source). */
  reviewer: string;
  /** ReviewState name, e.g. REVIEW_STATE_APPROVED (published data is approved). */
  reviewState: 'REVIEW_STATE_PENDING' | 'REVIEW_STATE_APPROVED' | 'REVIEW_STATE_REQUEST_CHANGES' | 'REVIEW_STATE_REJECTED';
  issue?: string;
}

export interface NormalizedAdvisory {
  /** The origin package: the feed document's id (YAML package.name, OSV/secdb package). */
  origin: string;
  /** The namespace of the package's repository (wolfi, chainguard); '' when the source does not say. */
  packageNamespace: string;
  /** CGA id (minted by mintAdvisoryId when the source has none). */
  advisoryId: string;
  legacyAdvisoryId?: string;
  /** Sorted, unique, never the advisoryId. */
  aliases: string[];
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentType: string;
  componentLocation: string;
  /** "import:<format>" for imported advisories. */
  author: string;
  /** Oldest first (stable for equal times). */
  events: NormalizedEvent[];
  /** The versions the source record says are affected (OSV ranges and versions), kept for matching; absent when the events decide. */
  affected?: AdvisoryAffected;
}

/** What one source file gave: its advisories, or the first error with file and line. */
export interface ParsedFile {
  /** The path as given (for a zip entry: "<zip path>!<entry name>"). */
  file: string;
  advisories: NormalizedAdvisory[];
}

/** A refused input: printed as "<file>:<line>: <message>" (line 0 when the format has none). */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'ImportError';
  }
}

/** Defaults where a source names no component: the package itself, as its APK metadata. */
export const PACKAGE_COMPONENT = { componentType: 'apk', componentLocation: './PKGINFO' } as const;
