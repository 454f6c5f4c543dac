// The SCIM server's routes as data: (method, resource, with an id or not) →
// one line onto IAM's SCIM operations. A provider uid has several segments
// (org/…/provider), so paths are split here rather than by Fastify's params:
// /scim/v2/{uid segments}/{Resource}[/{id}], the resource being the first
// segment that is not a uid segment.
import type { FastifyRequest } from 'fastify';
import { createGroup } from '../../iam/scim/create-group.js';
import { createUser } from '../../iam/scim/create-user.js';
import { deleteGroup } from '../../iam/scim/delete-group.js';
import { deleteUser } from '../../iam/scim/delete-user.js';
import { getGroup, listGroups, membersWanted } from '../../iam/scim/read-groups.js';
import { getUser, type ListQuery, listUsers } from '../../iam/scim/read-users.js';
import { resourceType, resourceTypes, schema, schemas, serviceProviderConfig } from '../../iam/scim/scim-discovery.js';
import { scimMethodNotAllowed, scimNotFound } from '../../iam/scim/scim-errors.js';
import { patchGroup, replaceGroup } from '../../iam/scim/update-group.js';
import { patchUser, replaceUser } from '../../iam/scim/update-user.js';
import { jsonBody, type ScimHandler } from './scim-handler.js';

type Query = ListQuery & { attributes?: string; excludedAttributes?: string };

const query = (req: FastifyRequest): Query => {
  const q = req.query as Record<string, unknown>;
  const one = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : undefined);
  return {
    filter: one('filter'),
    startIndex: one('startIndex'),
    count: one('count'),
    attributes: one('attributes'),
    excludedAttributes: one('excludedAttributes'),
  };
};

export interface ScimPath {
  provider: string;
  resource: string;
  id?: string;
}

const UID_SEGMENT = /^[0-9a-f]{16,40}$/;

/** Splits a path under /scim/v2/; undefined when it names no provider and resource. */
export function scimPath(pathname: string): ScimPath | undefined {
  const segments = pathname.replace(/^\/scim\/v2\//, '').split('/');
  const i = segments.findIndex((s) => !UID_SEGMENT.test(s));
  if (i <= 0 || segments.length > i + 2) return undefined;
  let id: string | undefined;
  try {
    id = segments[i + 1] === undefined ? undefined : decodeURIComponent(segments[i + 1]);
  } catch {
    return undefined;
  }
  return { provider: segments.slice(0, i).join('/'), resource: segments[i], id };
}

type Op = (req: FastifyRequest, id: string | undefined) => ScimHandler;

const found = <T>(v: T | undefined, what: string, key: string): T => {
  if (v === undefined) throw scimNotFound(what, key);
  return v;
};
const created = (body: Record<string, unknown>) => ({ status: 201, body, location: (body.meta as { location: string }).location });

/** resource → "METHOD" or "METHOD id" → the operation. */
const ROUTES: Record<string, Record<string, Op>> = {
  ServiceProviderConfig: { GET: () => async (c) => ({ body: serviceProviderConfig(c.base) }) },
  ResourceTypes: {
    GET: () => async (c) => ({ body: resourceTypes(c.base) }),
    'GET id': (_r, id) => async (c) => ({ body: found(resourceType(c.base, id!), 'ResourceType', id!) }),
  },
  Schemas: {
    GET: () => async (c) => ({ body: schemas(c.base) }),
    'GET id': (_r, id) => async (c) => ({ body: found(schema(c.base, id!), 'Schema', id!) }),
  },
  Users: {
    POST: (req) => async (c) => created(await createUser(c, jsonBody(req))),
    GET: (req) => async (c) => ({ body: await listUsers(c, query(req)) }),
    'GET id': (_r, id) => async (c) => ({ body: await getUser(c, id!) }),
    'PUT id': (req, id) => async (c) => ({ body: await replaceUser(c, id!, jsonBody(req)) }),
    'PATCH id': (req, id) => async (c) => ({ body: await patchUser(c, id!, jsonBody(req)) }),
    'DELETE id': (_r, id) => async (c) => {
      await deleteUser(c, id!);
      return { status: 204 };
    },
  },
  Groups: {
    POST: (req) => async (c) => created(await createGroup(c, jsonBody(req))),
    GET: (req) => async (c) => ({ body: await listGroups(c, query(req), membersWanted(query(req))) }),
    'GET id': (req, id) => async (c) => ({ body: await getGroup(c, id!, membersWanted(query(req))) }),
    'PUT id': (req, id) => async (c) => ({ body: await replaceGroup(c, id!, jsonBody(req)) }),
    'PATCH id': (req, id) => async (c) => ({ body: await patchGroup(c, id!, jsonBody(req), membersWanted(query(req))) }),
    'DELETE id': (_r, id) => async (c) => {
      await deleteGroup(c, id!);
      return { status: 204 };
    },
  },
};

/** The handler of a request, run once the caller is authenticated: 404 for an unknown resource, 405 for a method it lacks. */
export function scimOperation(req: FastifyRequest, path: ScimPath): ScimHandler {
  const routes = ROUTES[path.resource];
  if (!routes || !Object.hasOwn(ROUTES, path.resource))
    return async () => {
      throw scimNotFound('endpoint', path.resource);
    };
  const key = path.id === undefined ? req.method : `${req.method} id`;
  const op = Object.hasOwn(routes, key) ? routes[key] : undefined;
  if (!op)
    return async () => {
      throw scimMethodNotAllowed();
    };
  return op(req, path.id);
}
