// Runs a /v2/<name>/… request through the route table: match the path and
// method, authorize the action the route declares on the repository its path
// names, then call the route with what authorization resolved. Nothing of a
// route runs before its check — not its parameter checks, not its body read —
// so a caller without permission learns nothing, and the answer is the same
// whether or not the repository exists (authorize-repo.ts). A route that
// declares 'none' is called as is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { metrics } from '../core/metrics.js';
import { noteRoute, requestRecordOf } from '../core/request-record.js';
import type { AuthorizationSource, RegistryAccess } from './authorize-repo.js';
import { OciError } from './oci-errors.js';
import { readBoundedBody } from './request-body.js';
import type { OciRouteTable } from './route-table.js';
import type { RepoAction } from './token-scope.js';

export type AuthorizeRepo = (request: AuthorizationSource, name: string, action: RepoAction) => Promise<RegistryAccess>;

export async function dispatchRoute(table: OciRouteTable, authorize: AuthorizeRepo, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const path = request.url.split('?')[0];
  const found = table.match(request.method, path);
  if (found === undefined) throw new OciError('NAME_UNKNOWN', `no route for ${request.method} ${path.slice(0, 200)}`);
  if ('allowed' in found) {
    throw new OciError('UNSUPPORTED', `${request.method} is not supported on this path`, undefined, { headers: { allow: found.allowed.join(', ') } });
  }
  const { route, params } = found;
  noteRoute(requestRecordOf(request.raw), route.template);
  const m = metrics();
  if (m && route.template.includes('/blobs/uploads/')) {
    m.uploadsInProgress.inc();
    reply.raw.once('close', () => m.uploadsInProgress.dec());
  }
  const call = { request, reply, params, readBody: () => readBoundedBody(request.raw, route.bodyLimit ?? 0) };
  if (route.action === 'none') await route.handle(call);
  else await route.handle({ ...call, access: await authorize(request, params.name, route.action) });
  return reply;
}
