// What registry routes are built with: the runtime they serve (store, issuer,
// access directory, services' dependencies), the listener's configuration,
// and the registry's authorization check: the dispatcher runs it for the
// action each route declares; a route calls it itself only for a second
// repository its request names (a mount's source).
import type { Logger } from 'pino';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import type { ManifestObserver } from '../registry/content/manifest-observer.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AuthorizationSource, RegistryAccess } from './authorize-repo.js';
import type { PullEventLog } from './pull-event-log.js';
import type { RegistryConfig } from './registry-config.js';
import type { OciRoute } from './route-table.js';
import type { RepoAction } from './token-scope.js';

export interface RegistryContext {
  runtime: Runtime;
  config: RegistryConfig;
  logger: Logger;
  /** Where blob bytes live. */
  blobs: BlobStore;
  /** Commits pull events (grouped) before their responses go out. */
  pullEvents: PullEventLog;
  /** Told of every manifest a push creates, in the push's transaction (composed by the runtime). */
  manifestObserver?: ManifestObserver;
  /** Authorizes `action` on repository `name` for this request, or throws the OciError to answer (401/403/400). */
  authorizeRepo(request: AuthorizationSource, name: string, action: RepoAction): Promise<RegistryAccess>;
}

/** A module of the registry's /v2/<name>/… routes: built once per listener from the context. */
export type RegistryRouteFactory = (ctx: RegistryContext) => OciRoute;
