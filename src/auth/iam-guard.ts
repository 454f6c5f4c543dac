// Wraps a service implementation so every RPC is authenticated and, unless the
// RPC is unscoped, authorized against the uid in its iam_scope request field,
// before the implementation runs. Permission is checked before existence: the
// check reads only the caller's bindings and the uid, never the resource.
import type { DescField, DescMessage, DescMethod, DescService, Message } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { ConnectError, type HandlerContext, type ServiceImpl } from '@connectrpc/connect';
import type { Logger } from 'pino';
import { iam, iam_scope, type IAM } from '../gen/berth/annotations/v1/annotations_pb.js';
import { badRequest, nulInString } from '../core/request-errors.js';
import { identityGone, tokenInvalid, tokenRequired } from './errors.js';
import { databaseUnavailable, internal, justCreated } from '../server/errors.js';
import { isUniqueViolation } from '../store/constraint-error.js';
import { findNulString } from '../core/nul-strings.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { isValidUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import type { AccessDirectory } from './access-directory.js';
import { Caller, callerKey } from './caller.js';
import type { Issuer } from './issuer.js';

export interface GuardDeps {
  store: Store;
  issuer: Issuer;
  access: AccessDirectory;
  /** The audience API tokens must carry. */
  audience: string;
  logger: Logger;
}

/** "berth.iam.v2.GroupsService" → "iam.berth.dev" (the ErrorInfo domain). */
export function errorDomainOf(service: DescService): string {
  const parts = service.typeName.split('.');
  return `${parts[1] ?? 'api'}.berth.dev`;
}

function ruleOf(method: DescMethod): IAM | undefined {
  return hasOption(method, iam) ? getOption(method, iam) : undefined;
}

const scopeFields = new WeakMap<DescMessage, DescField | null>();

/** The request field marked iam_scope (looked up once per message type). */
function scopeField(schema: DescMessage): DescField | undefined {
  const known = scopeFields.get(schema);
  if (known !== undefined) return known ?? undefined;
  const found = findScopeField(schema);
  scopeFields.set(schema, found ?? null);
  return found;
}

function findScopeField(schema: DescMessage): DescField | undefined {
  return schema.fields.find((f) => hasOption(f, iam_scope) && getOption(f, iam_scope));
}

/** The uid a scoped RPC is checked at, following a message-typed scope field to its own scope field. */
function scopeUid(method: DescMethod, req: Message, domain: string): string {
  const f = scopeField(method.input);
  if (!f) throw new Error(`${method.parent.typeName}.${method.name} has no iam_scope field`);
  let value: unknown = (req as unknown as Record<string, unknown>)[f.localName];
  let path = f.name;
  if (f.fieldKind === 'message') {
    const inner = scopeField(f.message);
    if (!inner) throw new Error(`${f.message.typeName} has no iam_scope field`);
    value = value ? (value as Record<string, unknown>)[inner.localName] : '';
    path = `${f.name}.${inner.name}`;
  }
  const uid = typeof value === 'string' ? value : '';
  if (uid === '') throw badRequest(domain, [{ field: path, description: `${path} is required` }]);
  if (!isValidUid(uid)) throw badRequest(domain, [{ field: path, description: `"${uid.slice(0, 80)}" is not a valid uid` }]);
  return uid;
}

export async function authenticate(deps: GuardDeps, header: Headers, domain: string): Promise<Caller> {
  const auth = header.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!m) throw tokenRequired(domain);
  let subject: string;
  try {
    subject = (await deps.issuer.verify(m[1], deps.audience)).subject;
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err; // reloading keys failed: not the token's fault
    throw tokenInvalid(domain);
  }
  // A valid signature is not enough: the identity may have been deleted since.
  const access = await deps.access.load(subject);
  if (!access.exists) throw identityGone(domain);
  return new Caller(subject, access);
}

type Handler = (req: Message, ctx: HandlerContext) => Promise<Message>;

/**
 * Checks an RPC may run after authentication and before authorization, from
 * the request alone (no reads), for answers that do not depend on the caller's
 * rights — e.g. "built-in roles cannot be changed", whose uids are public.
 */
export type Preflight = (req: Message) => void;
export type Preflights = Readonly<Record<string, Preflight>>;

export function guard<S extends DescService>(service: S, impl: ServiceImpl<S>, deps: GuardDeps, preflights: Preflights = {}): ServiceImpl<S> {
  const domain = errorDomainOf(service);
  const out: Record<string, unknown> = {};
  for (const method of service.methods) {
    const fn = (impl as Record<string, unknown>)[method.localName];
    if (typeof fn !== 'function') continue;
    if (method.methodKind !== 'unary') {
      out[method.localName] = fn.bind(impl);
      continue;
    }
    const rule = ruleOf(method);
    const handler = fn.bind(impl) as Handler;
    if (!rule || rule.mode.case === undefined) {
      // Default deny: an RPC that does not declare its rule cannot be served.
      throw new Error(`${service.typeName}.${method.name} has no (berth.annotations.v1.iam) option`);
    }
    const rules = rule.mode.case === 'enabled' ? rule.mode.value : undefined;
    const preflight = preflights[method.localName];
    const guarded = async (req: Message, ctx: HandlerContext) => {
      const nul = findNulString(method.input, req as unknown as Record<string, unknown>);
      if (nul) throw nulInString(domain, nul);
      if (rules) {
        const caller = await authenticate(deps, ctx.requestHeader, domain);
        preflight?.(req);
        if (!rules.unscoped) {
          const uid = scopeUid(method, req, domain);
          await caller.require(domain, rules.capabilities, uid);
        }
        ctx.values.set(callerKey, caller);
      }
      return handler(req, ctx);
    };
    // Unexpected failures are logged here, once, for every transport, and the
    // client sees INTERNAL with no cause (a database message must not leak),
    // or UNAVAILABLE (with Retry-After) when the database cannot be reached.
    out[method.localName] = async (req: Message, ctx: HandlerContext) => {
      try {
        return await guarded(req, ctx);
      } catch (err) {
        if (err instanceof ConnectError) throw err;
        if (isUniqueViolation(err)) throw justCreated(domain, method.output.typeName);
        if (isDatabaseUnavailable(err)) {
          deps.logger.warn({ err, rpc: `${service.typeName}/${method.name}` }, 'database unavailable');
          throw databaseUnavailable(domain);
        }
        deps.logger.error({ err, rpc: `${service.typeName}/${method.name}` }, 'rpc failed');
        throw internal(domain);
      }
    };
  }
  return out as ServiceImpl<S>;
}
