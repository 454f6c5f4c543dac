// What a SCIM route is made of: a handler that runs once the caller is
// known (scim-routes.ts authenticates), and the request's JSON body.
import type { FastifyRequest } from 'fastify';
import type { ScimContext } from '../../iam/scim/scim-context.js';
import { scimInvalidSyntax } from '../../iam/scim/scim-errors.js';

/** The body to answer with (none: no content), its status and Location. */
export type ScimHandler = (c: ScimContext, req: FastifyRequest) => Promise<{ status?: number; body?: unknown; location?: string }>;

/** The parsed JSON body of a request; invalidSyntax when it is not JSON. */
export function jsonBody(req: FastifyRequest): unknown {
  const raw = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) throw scimInvalidSyntax('the request needs a JSON body');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw scimInvalidSyntax('the request body is not valid JSON');
  }
}
