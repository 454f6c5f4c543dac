// The registry's repository routes (/v2/<name>/…), in match order. Adding a
// route: a file that builds an OciRoute from the RegistryContext, one line here.
import { blobRoute } from './blob-routes.js';
import { manifestRoute } from './manifest-routes.js';
import { referrersRoute } from './referrers-route.js';
import type { RegistryRouteFactory } from './registry-context.js';
import { tagHistoryRoute } from './tag-history-route.js';
import { tagListRoute } from './tag-list-route.js';
import { uploadRoute, uploadStartRoute } from './upload-routes.js';

export const REGISTRY_ROUTES: readonly RegistryRouteFactory[] = [
  tagHistoryRoute,
  uploadStartRoute,
  uploadRoute,
  blobRoute,
  manifestRoute,
  tagListRoute,
  referrersRoute,
];
