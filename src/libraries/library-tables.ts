// The library catalogue (migration 0028): artifacts and their versions, each
// catalogue under the group it was imported into. Written only by
// catalogue-writer.ts; read by the v2 and v1 Artifacts services.

export interface LibraryArtifactTable {
  /** "<group uid> <uid>": unique across catalogues, the lists' tie-breaker. */
  key: string;
  group_uid: string;
  /** pypi:<normalized>, maven:<groupId>:<artifactId>, npm:<name>. */
  uid: string;
  /** python, java or javascript. */
  ecosystem: string;
  name: string;
  /** The name lower-cased, what `query` searches. */
  search_name: string;
  description: string;
  latest_version: string;
  version_count: number;
  /** 1 when a version is remediated (+cgr.N, -0.cgr.N). */
  remediated: number;
  /** ",cu126,cu128," for the CUDA variants among the versions, "" for none. */
  cuda_versions: string;
  create_time: string;
  update_time: string;
}

export interface LibraryVersionTable {
  /** "<artifact key> <version>". */
  key: string;
  artifact_key: string;
  /** <artifact uid>:<version>. */
  uid: string;
  version: string;
  /** The version's place in its artifact under the ecosystem's order, zero-padded: keyset pages order by it. */
  version_rank: string;
  description: string;
  size_bytes: number | string | bigint;
  create_time: string;
  update_time: string;
  remediated: number;
  /** cu128 for a CUDA build, "" otherwise. */
  cuda_version: string;
}

declare module '../store/database.js' {
  interface Database {
    library_artifacts: LibraryArtifactTable;
    library_versions: LibraryVersionTable;
  }
}
