// The Fastify side of a request's route label: the route Fastify matched
// (a fixed path such as /healthz or /v2/, a gRPC or Connect method path, or a
// wildcard a router refines later with noteRoute) is noted when the request
// arrives, and /metrics is served when metrics are on. Nothing is added when
// neither metrics nor an access log would read it.
import type { FastifyInstance } from 'fastify';
import { metrics } from '../core/metrics.js';
import { noteRoute } from '../core/request-record.js';
import { metricsRoute } from './metrics-route.js';

export function observeRoutes(app: FastifyInstance): void {
  const m = metrics();
  if (m) app.get('/metrics', metricsRoute(m));
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.routeOptions.url;
    if (url !== undefined) noteRoute(url);
    done();
  });
}
