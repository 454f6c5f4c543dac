// The registry's repository routes (/v2/<name>/…), in match order. Adding a
// route: a file that builds an OciRoute from the RegistryContext, one line here.
import type { RegistryRouteFactory } from './registry-context.js';
import { tagHistoryRoute } from './tag-history-route.js';

export const REGISTRY_ROUTES: readonly RegistryRouteFactory[] = [tagHistoryRoute];
