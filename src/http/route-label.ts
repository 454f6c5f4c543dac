// The Fastify side of a request's route label: a route Fastify matched (a
// fixed path such as /healthz or /v2/, a gRPC or Connect method path, the
// console's /ui/*) notes its template when the request arrives, through a
// hook of that route alone; a router that matches its own routes under a
// wildcard (the REST transcoder, the registry's /v2/*) says so in its route's
// config (NOTES_OWN_ROUTE) and notes the template it finds, so its requests
// run no hook. /metrics is served when metrics are on.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { metrics } from '../core/metrics.js';
import { noteRoute, requestRecordOf } from '../core/request-record.js';
import { metricsRoute } from './metrics-route.js';

/** A route's config when its handler notes the route template itself (noteRoute). */
export const NOTES_OWN_ROUTE = { notesOwnRoute: true } as const;

export function observeRoutes(app: FastifyInstance): void {
  const m = metrics();
  app.addHook('onRoute', (route) => {
    if ((route.config as { notesOwnRoute?: boolean } | undefined)?.notesOwnRoute) return;
    const template = route.url;
    if (template === undefined) return;
    const note: onRequestHookHandler = (request, _reply, done) => {
      noteRoute(requestRecordOf(request.raw), template);
      done();
    };
    route.onRequest = route.onRequest === undefined ? [note] : [...[route.onRequest].flat(), note];
  });
  if (m) app.get('/metrics', metricsRoute(m));
}
