// The registry's repository routes (/v2/<name>/…), in match order. Adding a
// route: a file that builds an OciRoute from the RegistryContext — declaring
// the action it needs, which the dispatcher checks first — one line here.
// Several routes may share a path with different methods (one per action).
import { blobDeleteRoute, blobReadRoute } from './blob-routes.js';
import { manifestDeleteRoute, manifestPutRoute, manifestReadRoute } from './manifest-routes.js';
import { referrersRoute } from './referrers-route.js';
import type { RegistryRouteFactory } from './registry-context.js';
import { tagHistoryRoute } from './tag-history-route.js';
import { tagListRoute } from './tag-list-route.js';
import { uploadRoute, uploadStartRoute } from './upload-routes.js';

export const REGISTRY_ROUTES: readonly RegistryRouteFactory[] = [
  tagHistoryRoute,
  uploadStartRoute,
  uploadRoute,
  blobReadRoute,
  blobDeleteRoute,
  manifestReadRoute,
  manifestPutRoute,
  manifestDeleteRoute,
  tagListRoute,
  referrersRoute,
];
