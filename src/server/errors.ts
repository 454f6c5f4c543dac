// The errors of the transports themselves (routing, bodies, start-up,
// failures Berth did not raise on purpose), made by name and declared in the
// catalogue. Their domain is the one of the service the path belongs to.
import { Code } from '@connectrpc/connect';
import {
  alreadyExists,
  databaseUnavailable as dbUnavailable,
  internalError,
  invalidArgument,
  notFound,
  unavailable,
  unimplemented,
} from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const routeNotFound = defineError(
  { domain: 'any', name: 'routeNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'no route has this path, under any prefix or none' },
  (domain: string, method: string, path: string) => notFound(domain, 'route', `${method} ${path.slice(0, 200)}`),
);
export const methodNotAllowed = defineError(
  {
    domain: 'any',
    name: 'methodNotAllowed',
    code: Code.Unimplemented,
    detail: 'ErrorInfo only',
    when: 'the path exists but not for this HTTP method (with an Allow header)',
  },
  (domain: string, method: string, allowed: readonly string[]) => unimplemented(domain, `${method} is not supported on this path; use ${allowed.join(', ')}`),
);
export const streamNotGuarded = defineError(
  {
    domain: 'any',
    name: 'streamNotGuarded',
    code: Code.Unimplemented,
    detail: 'ErrorInfo only',
    when: 'a streaming method of a served service: the RPC guard authorizes unary calls only, so it serves no stream until one is guarded (gRPC reflection is served apart, public)',
  },
  (domain: string, rpc: string) => unimplemented(domain, `${rpc} is a streaming method, and streaming methods are not served`),
);
export const badBody = defineError(
  {
    domain: 'any',
    name: 'badBody',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'the body is not JSON, not an object, larger than the limit or unreadable; a gRPC/Connect message that does not decode or decompress, or a unary call with no message or two',
  },
  (domain: string, description: string) => invalidArgument(domain, [{ field: 'body', description }]),
);
export const starting = defineError(
  { domain: 'any', name: 'starting', code: Code.Unavailable, detail: 'ErrorInfo only', when: 'the server is still starting (with Retry-After)' },
  (domain: string) => unavailable(domain, 'starting'),
);
export const databaseUnavailable = defineError(
  {
    domain: 'any',
    name: 'databaseUnavailable',
    code: Code.Unavailable,
    detail: 'ErrorInfo only',
    when: 'the database cannot be reached: PostgreSQL ended a connection or restarts, another process holds the SQLite write lock for more than 5 s (with Retry-After)',
  },
  (domain: string) => dbUnavailable(domain),
);
export const storageFull = defineError(
  {
    domain: 'any',
    name: 'storageFull',
    code: Code.Unavailable,
    detail: 'ErrorInfo only',
    when: 'the disk holding the database or the data directory is full: retry once space is freed (with Retry-After; the path is logged)',
  },
  (domain: string) => unavailable(domain, 'the server is out of storage; retry later'),
);
export const justCreated = defineError(
  {
    domain: 'any',
    name: 'justCreated',
    code: Code.AlreadyExists,
    detail: 'ResourceInfo',
    when: 'two requests raced to create the same thing and this one lost',
  },
  (domain: string, type: string) => alreadyExists(domain, type, '', 'a resource with these values was just created by another request'),
);
export const internal = defineError(
  { domain: 'any', name: 'internal', code: Code.Internal, detail: 'ErrorInfo only', when: 'an unexpected failure (its cause is logged, never sent)' },
  (domain: string) => internalError(domain),
);
