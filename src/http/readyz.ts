// GET /readyz, on the API port and the registry port alike: whether this
// process can serve now — each check its runtime lists (database reachable,
// migrations done, blob store reachable) passed within READY_TIMEOUT_MS.
// 200 {"status":"ready"}; 503 {"status":"unavailable","failing":["database"]}
// with Retry-After otherwise. Unauthenticated, so it names what failed but
// never why (the cause is logged). /healthz stays the liveness answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { RETRY_AFTER_SECONDS } from '../core/api-error.js';

export interface ReadinessCheck {
  /** What the answer names when it fails: database, migrations, blob_store. */
  name: string;
  /** Resolves when ready. */
  check(): Promise<void>;
}

/** Longest a check may take before it counts as failed (a PostgreSQL connect waits longer). */
export const READY_TIMEOUT_MS = 2_000;

function bounded(check: ReadinessCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${check.name} did not answer in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  return Promise.race([check.check(), timeout]).finally(() => clearTimeout(timer));
}

export function readyz(checks: readonly ReadinessCheck[], logger: Logger): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (_req, reply) => {
    const results = await Promise.allSettled(checks.map(bounded));
    const failing: string[] = [];
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') return;
      failing.push(checks[i].name);
      logger.warn({ err: r.reason, check: checks[i].name }, 'readiness check failed');
    });
    reply.header('content-type', 'application/json').header('cache-control', 'no-store');
    if (failing.length === 0) return reply.code(200).send('{"status":"ready"}');
    return reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send(JSON.stringify({ status: 'unavailable', failing }));
  };
}
