// The jobs a new manifest calls for: each kind's triggeredBy, as (kind, digest) pairs.
import type { CreatedManifest } from '../../registry/content/manifest-observer.js';
import type { JobKind } from './job-kind.js';

export function jobsFor(kinds: ReadonlyMap<string, JobKind>, manifest: CreatedManifest): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, kind] of kinds) for (const digest of kind.triggeredBy?.(manifest) ?? []) out.push([name, digest]);
  return out;
}
