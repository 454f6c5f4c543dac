// One npm package from its packument (the registry's document of a package:
// name, versions{}, time{}), as a registry mirror stores it. Sizes are the
// tarball's (dist.size, else dist.unpackedSize), times the packument's
// time[version], descriptions each version's own.
import { stat } from 'node:fs/promises';
import type { CatalogueArtifact, CatalogueVersion } from '../catalogue-writer.js';
import { artifactUid } from '../ecosystems.js';
import { isValidVersion } from '../../versions/compare-versions.js';
import { isRemediated } from '../version-variants.js';
import { MAX_DESCRIPTION } from './core-metadata.js';
import { CatalogueFileError, type Problem } from './import-problem.js';

const NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
const MAX_VERSIONS = 100_000;

/** A packument: an object with a string name and a versions object (not PEP 700's versions array). */
export function isPackument(doc: unknown): doc is { name: string; versions: Record<string, unknown>; time?: Record<string, unknown> } {
  const d = doc as { name?: unknown; versions?: unknown };
  return (
    typeof d === 'object' && d !== null && typeof d.name === 'string' && typeof d.versions === 'object' && d.versions !== null && !Array.isArray(d.versions)
  );
}

function isoOf(v: unknown): string | undefined {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined;
}

export async function npmArtifact(
  path: string,
  doc: { name: string; versions: Record<string, unknown>; time?: Record<string, unknown> },
  problems: Problem[],
): Promise<CatalogueArtifact | undefined> {
  if (doc.name.length > 214 || !NAME.test(doc.name)) throw new CatalogueFileError(path, `"${doc.name.slice(0, 80)}" is not an npm package name`);
  const entries = Object.entries(doc.versions);
  if (entries.length > MAX_VERSIONS) throw new CatalogueFileError(path, `more than ${MAX_VERSIONS} versions`);
  const fileTime = (await stat(path)).mtime.toISOString();
  const time = (typeof doc.time === 'object' && doc.time !== null ? doc.time : {}) as Record<string, unknown>;
  const versions: CatalogueVersion[] = [];
  let invalid = 0;
  for (const [version, raw] of entries) {
    if (!isValidVersion('semver', version)) {
      invalid++;
      continue;
    }
    const v = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const dist = (typeof v.dist === 'object' && v.dist !== null ? v.dist : {}) as Record<string, unknown>;
    const size = [dist.size, dist.unpackedSize].find((s) => typeof s === 'number' && s >= 0 && Number.isSafeInteger(s)) as number | undefined;
    const at = isoOf(time[version]) ?? fileTime;
    versions.push({
      version,
      description: typeof v.description === 'string' ? v.description.slice(0, MAX_DESCRIPTION) : '',
      sizeBytes: size ?? 0,
      createTime: at,
      updateTime: at,
      remediated: isRemediated('javascript', version),
      cudaVersion: '',
    });
  }
  if (invalid > 0) problems.push({ path, message: `${invalid} version(s) that are not SemVer skipped` });
  if (versions.length === 0) return undefined;
  return { ecosystem: 'javascript', uid: artifactUid('javascript', doc.name), name: doc.name, versions };
}
