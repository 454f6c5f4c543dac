// The seam through which another domain learns of new manifests without the
// registry importing it: putManifest calls the observer, inside the push's
// transaction, for every manifest it creates in a repo (not for a put of one
// the repo already holds). Whatever the observer writes with `tx` commits or
// rolls back with the manifest, so nothing a client saw acknowledged is lost
// on a crash. The runtime composes the observer (scanning enqueues its jobs).
import type { Tx } from '../../store/transact.js';

/** A manifest just stored in a repo. */
export interface CreatedManifest {
  repoUid: string;
  digest: string;
  mediaType: string;
  kind: 'image' | 'index';
  /** The manifest's artifactType, or for an OCI image its config's media type (manifest.ts). */
  artifactType?: string;
  /** The manifest it refers to (a referrer). */
  subjectDigest?: string;
}

export interface ManifestObserver {
  /** Runs inside the push's transaction; a throw fails the push. */
  manifestCreated(tx: Tx, manifest: CreatedManifest): Promise<void>;
}
