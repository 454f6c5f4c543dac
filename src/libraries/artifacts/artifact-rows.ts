// Rows of the catalogue as the v2 messages show them.
import { isoToTimestamp } from '../../core/clock.js';
import type { Artifact, ArtifactVersion } from '../../gen/berth/libraries/v2/artifacts_pb.js';
import { ECOSYSTEMS, type EcosystemName } from '../ecosystems.js';
import type { LibraryArtifactTable, LibraryVersionTable } from '../library-tables.js';

export const ARTIFACT_COLUMNS = ['key', 'uid', 'ecosystem', 'name', 'description', 'latest_version', 'version_count', 'create_time', 'update_time'] as const;
export type ArtifactRow = Pick<LibraryArtifactTable, (typeof ARTIFACT_COLUMNS)[number]>;

export const VERSION_COLUMNS = [
  'key',
  'artifact_key',
  'uid',
  'version',
  'version_rank',
  'description',
  'size_bytes',
  'create_time',
  'update_time',
  'remediated',
] as const;
export type VersionRow = Pick<LibraryVersionTable, (typeof VERSION_COLUMNS)[number]>;

// Literals with every field, in field order: what create(…Schema, …) returns,
// without its per-field walk (50 per listed page).
export function artifactOf(r: ArtifactRow): Artifact {
  return {
    $typeName: 'berth.libraries.v2.Artifact',
    uid: r.uid,
    name: r.name,
    description: r.description,
    ecosystem: ECOSYSTEMS[r.ecosystem as EcosystemName]?.v2 ?? 0,
    latestVersion: r.latest_version,
    versionCount: Number(r.version_count),
    createTime: isoToTimestamp(r.create_time),
    updateTime: isoToTimestamp(r.update_time),
  };
}

export function versionOf(r: VersionRow, name: string): ArtifactVersion {
  return {
    $typeName: 'berth.libraries.v2.ArtifactVersion',
    uid: r.uid,
    name,
    version: r.version,
    description: r.description,
    createTime: isoToTimestamp(r.create_time),
    updateTime: isoToTimestamp(r.update_time),
    sizeBytes: BigInt(r.size_bytes),
  };
}
