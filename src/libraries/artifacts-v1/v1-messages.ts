// v1 shapes of the catalogue's rows: id for uid, created_at / updated_at for
// create_time / update_time, a version id that names its source type.
import { isoToTimestamp } from '../../core/clock.js';
import type { Artifact, ArtifactVersion } from '../../gen/berth/libraries/v1/artifacts_pb.js';
import type { ArtifactRow, VersionRow } from '../artifacts/artifact-rows.js';
import { ECOSYSTEMS, type EcosystemName } from '../ecosystems.js';

export function v1Artifact(r: ArtifactRow): Artifact {
  return {
    $typeName: 'berth.libraries.v1.Artifact',
    id: r.uid,
    name: r.name,
    description: r.description,
    ecosystem: ECOSYSTEMS[r.ecosystem as EcosystemName]?.v1 ?? 0,
    latestVersion: r.latest_version,
    versionCount: Number(r.version_count),
    createdAt: isoToTimestamp(r.create_time),
    updatedAt: isoToTimestamp(r.update_time),
  };
}

/** id = <artifact id>:<version>:<source type> (reference §4; Berth serves what it imported: INTERNAL, INTERNAL_REMEDIATED). */
export function v1Version(r: VersionRow, artifactId: string, name: string): ArtifactVersion {
  return {
    $typeName: 'berth.libraries.v1.ArtifactVersion',
    id: `${artifactId}:${r.version}:${Number(r.remediated) === 1 ? 'INTERNAL_REMEDIATED' : 'INTERNAL'}`,
    name,
    version: r.version,
    description: r.description,
    createdAt: isoToTimestamp(r.create_time),
    updatedAt: isoToTimestamp(r.update_time),
    sizeBytes: BigInt(r.size_bytes),
  };
}
