// GET /metrics, on the API port and the registry port alike: the process's
// metrics in Prometheus' text format. Unauthenticated, as Prometheus exporters
// and Harbor, Quay and Zot serve theirs: labels are route templates, statuses
// and states, never a repository, group or identity. An operator who does not
// want it public runs with --metrics off or blocks /metrics at the proxy
// (docs/operations.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../core/metrics.js';

export function metricsRoute(m: Metrics): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (_req, reply) => {
    const body = await m.render();
    return reply.code(200).header('content-type', m.registry.contentType).header('cache-control', 'no-store').send(body);
  };
}
