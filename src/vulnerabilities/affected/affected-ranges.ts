// What matching reads of an advisory: the versions of one package it affects,
// as intervals, and whether a fix exists or is not planned. Derived from two
// things only, by every writer alike (rangeRows): what the source record says
// of versions (OSV `affected[].ranges` and `.versions`, kept on the advisory
// as `affected`), and the advisory's newest approved event, which decides:
//   false positive, patched          → not affected (suppresses other feeds' matches)
//   fixed (with a version)           → affected below that version
//   detection, true positive,
//   pending upstream fix             → affected, no fix
//   fix / analysis not planned       → affected, won't fix
// When the record gave ranges they stand (the event only turns them into
// not-affected or won't-fix). A withdrawn record affects nothing.
import { compareVersions, type VersionScheme } from '../../versions/compare-versions.js';
import { EVENT_KINDS, type EventKind, KIND_NAMES } from '../event-kinds.js';
import { schemeOfEcosystem } from './ecosystem-keys.js';

/** One span of affected versions; '' leaves a side open. `lastAffected` is inclusive, `fixed` exclusive. */
export interface AffectedInterval {
  introduced: string;
  fixed: string;
  lastAffected: string;
}

/** advisories.affected (JSON): what the source record said of versions. */
export interface AdvisoryAffected {
  ecosystem: string;
  package: string;
  intervals: AffectedInterval[];
  /** The source withdrew the record, or its file no longer holds the advisory. */
  withdrawn?: boolean;
}

export type RangeStatus = 'affected' | 'not-affected' | 'wont-fix';

export interface RangeRow extends AffectedInterval {
  ecosystem: string;
  package: string;
  scheme: VersionScheme;
  status: RangeStatus;
}

/** An OSV range event. */
export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}

/**
 * The intervals of one OSV range, as the OSV specification evaluates it:
 * events sorted by version ("0" first), each `introduced` opening a span that
 * the next `fixed` (exclusive) or `last_affected` (inclusive) closes. `limit`
 * bounds commit walks (GIT ranges) and is not used for package versions.
 */
export function osvIntervals(scheme: VersionScheme, events: readonly OsvEvent[]): AffectedInterval[] {
  const keyed = events
    .map((e) => {
      if (e.introduced !== undefined) return { kind: 'introduced' as const, v: e.introduced };
      if (e.fixed !== undefined) return { kind: 'fixed' as const, v: e.fixed };
      if (e.last_affected !== undefined) return { kind: 'last' as const, v: e.last_affected };
      return undefined;
    })
    .filter((e) => e !== undefined);
  keyed.sort((a, b) => {
    const za = a.kind === 'introduced' && a.v === '0';
    const zb = b.kind === 'introduced' && b.v === '0';
    if (za || zb) return za === zb ? 0 : za ? -1 : 1;
    return compareVersions(scheme, a.v, b.v);
  });
  const out: AffectedInterval[] = [];
  let open: string | undefined;
  for (const e of keyed) {
    if (e.kind === 'introduced') {
      if (open === undefined) open = e.v === '0' ? '' : e.v;
    } else if (open !== undefined) {
      out.push({ introduced: open, fixed: e.kind === 'fixed' ? e.v : '', lastAffected: e.kind === 'last' ? e.v : '' });
      open = undefined;
    }
  }
  if (open !== undefined) out.push({ introduced: open, fixed: '', lastAffected: '' });
  return out;
}

const KIND_OF_TYPE = new Map<number, EventKind>(EVENT_KINDS.map((k) => [KIND_NAMES[k].filter, k]));

/** The newest approved event as matching needs it: its kind and, for fixed, the version. */
export interface LatestEvent {
  kind: EventKind;
  fixedVersion?: string;
}

/** From an advisory_events row's type and data (proto3 JSON of the oneof). */
export function latestEventOf(type: number, data: string): LatestEvent | undefined {
  const kind = KIND_OF_TYPE.get(type);
  if (!kind) return undefined;
  if (kind !== 'fixed') return { kind };
  try {
    const v = (JSON.parse(data) as { fixed?: { fixedVersion?: unknown } }).fixed?.fixedVersion;
    return typeof v === 'string' && v !== '' ? { kind, fixedVersion: v } : { kind };
  } catch {
    return { kind };
  }
}

const OPEN: AffectedInterval = { introduced: '', fixed: '', lastAffected: '' };

/**
 * The range rows of one advisory. `affected` is what its record said (absent
 * for YAML, secdb, OpenVEX and API advisories, whose ecosystem and package
 * come from `fallback`). No rows where Berth cannot order the ecosystem's
 * versions or nothing approved says anything.
 */
export function rangeRows(
  affected: AdvisoryAffected | undefined,
  fallback: { ecosystem: string; package: string } | undefined,
  latest: LatestEvent | undefined,
): RangeRow[] {
  if (affected?.withdrawn) return [];
  const target = affected ?? fallback;
  if (!target) return [];
  const scheme = schemeOfEcosystem(target.ecosystem);
  if (!scheme) return [];
  const row = (status: RangeStatus, i: AffectedInterval): RangeRow => ({ ecosystem: target.ecosystem, package: target.package, scheme, status, ...i });
  const kind = latest?.kind;
  if (kind === 'false-positive-determination' || kind === 'patched') return [row('not-affected', OPEN)];
  const wontFix = kind === 'fix-not-planned' || kind === 'analysis-not-planned';
  if (affected && affected.intervals.length > 0) return affected.intervals.map((i) => row(wontFix ? 'wont-fix' : 'affected', i));
  if (!latest) return [];
  if (wontFix) return [row('wont-fix', OPEN)];
  if (kind === 'fixed') return latest.fixedVersion ? [row('affected', { ...OPEN, fixed: latest.fixedVersion })] : [];
  return [row('affected', OPEN)];
}
