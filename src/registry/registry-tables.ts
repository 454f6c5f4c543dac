// The registry's tables. Tags and tag history belong to their repo (deleted
// with it); a repo belongs to its group (the group cannot go while it exists).
// Content (migration 0006): blobs are global and content-addressed; a repo
// reads a blob only through its repo_blobs link; manifests, their references
// and upload sessions belong to their repo and go with it. push_time
// (migration 0007) is when a client last pushed a manifest or blob link: what
// gc's grace period is measured from.
import type { Generated } from 'kysely';
import type { ResourceColumns } from '../store/database.js';

export interface ReposTable extends ResourceColumns {
  parent_uid: string;
  name: string;
  description: string;
  readme: string;
}

export interface TagsTable extends ResourceColumns {
  parent_uid: string;
  name: string;
  digest: string;
  deprecated: number;
}

export interface TagHistoryTable {
  id: Generated<number>;
  repo_uid: string;
  tag_name: string;
  digest: string;
  update_time: string;
}

/** A committed blob, whoever links it. The bytes live in the blob store. */
export interface BlobsTable {
  digest: string;
  size: number;
  create_time: string;
}

/** A repo may read the blob (pushed or mounted into it). */
export interface RepoBlobsTable {
  repo_uid: string;
  digest: string;
  create_time: string;
  /** When a client last uploaded or mounted the blob into the repo (gc's grace runs from it). */
  push_time: string;
}

export interface ManifestsTable {
  repo_uid: string;
  digest: string;
  media_type: string;
  /** As the referrers API reports it (see ParsedManifest.artifactType). */
  artifact_type: string | null;
  subject_digest: string | null;
  size: number;
  /** The exact bytes pushed. */
  content: Uint8Array;
  /** JSON object text, or null when the manifest has none. */
  annotations: string | null;
  /** An image manifest's platform, from its config blob when the listener read it; null for indexes and when unknown. */
  os: string | null;
  architecture: string | null;
  variant: string | null;
  create_time: string;
  /** When a client last put the manifest (gc's grace runs from it); create_time stays the first put. */
  push_time: string;
}

/** What a manifest lists: blobs (config at position 0, then layers) or child manifests (index entries, with their platforms). */
export interface ManifestRefsTable {
  repo_uid: string;
  manifest_digest: string;
  position: number;
  child_digest: string;
  kind: 'blob' | 'manifest';
  media_type: string;
  size: number;
  os: string | null;
  architecture: string | null;
  variant: string | null;
}

/** An upload session of the blob store, and the repo it pushes into. */
export interface UploadsTable {
  id: string;
  repo_uid: string;
  create_time: string;
}

declare module '../store/database.js' {
  interface Database {
    repos: ReposTable;
    tags: TagsTable;
    tag_history: TagHistoryTable;
    blobs: BlobsTable;
    repo_blobs: RepoBlobsTable;
    manifests: ManifestsTable;
    manifest_refs: ManifestRefsTable;
    uploads: UploadsTable;
  }
}
