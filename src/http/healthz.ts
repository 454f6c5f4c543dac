// GET /healthz, on the API port and the registry port alike. Unauthenticated,
// so a failure's cause goes to the log, never to the caller: 200
// {"status":"ok"}; 200 {"status":"degraded"} while writes fail for lack of
// space (reads still work: the server stays in service); 503
// {"status":"unavailable"} with Retry-After when the database cannot be read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { RETRY_AFTER_SECONDS } from '../core/api-error.js';

/** What the answer is made of; the runtime is one. */
export interface HealthSource {
  /** Resolves once the database answered a read. */
  probe(): Promise<void>;
  readonly storage: { readonly degraded: boolean };
}

export function healthz(runtime: HealthSource, logger: Logger): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (_req, reply) => {
    try {
      await runtime.probe();
    } catch (err) {
      logger.warn({ err }, 'health check failed');
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('content-type', 'application/json').send('{"status":"unavailable"}');
    }
    const status = runtime.storage.degraded ? 'degraded' : 'ok';
    return reply.code(200).header('content-type', 'application/json').send(`{"status":"${status}"}`);
  };
}
