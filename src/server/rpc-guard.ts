// Wraps a service implementation for the Connect and REST transports: every
// RPC refuses NUL strings, authenticates (unless anonymous), runs its
// preflight, is authorized from its iam annotation, and leaves as a named
// error — in that order, before the implementation runs. An operator may ask
// for a token on a service whose RPCs are anonymous by their annotation (the
// advisory feed's --feed-requires-auth): `requireToken`.
//
// Only unary methods are guarded, so only they are served: a client-, server-
// or bidi-streaming method is answered UNIMPLEMENTED (streamNotGuarded), to
// every caller, before authentication — default deny, as the registry's route
// table does. UNIMPLEMENTED, not PERMISSION_DENIED: no caller could be allowed,
// so it is not a permission decision (PERMISSION_DENIED would send clients
// asking for roles that do not help), and it is what Connect answers for a
// method with no implementation. A streaming RPC needs a guard of its own
// written here before it is served. gRPC reflection (a bidi stream) is not in
// the services' list: api-listener registers it apart, public by design — it
// describes the protos, which are public.
//
// A mutating RPC (one that declares its event) refused with
// PERMISSION_DENIED for a caller with an identity is audited
// (recordDenied, src/events/audit/): at the uid its permission was checked at,
// or for an RPC that checks itself, at the caller's own group.
import type { StorageHealth } from '../runtime/storage-health.js';
import { getOption, hasOption, type DescMethod, type DescService, type Message } from '@bufbuild/protobuf';
import { Code, type HandlerContext, type ServiceImpl } from '@connectrpc/connect';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import { accessRuleOf, authorize, scopeUid, type AccessRule, type Preflights } from '../auth/authorize.js';
import { callerKey, type Caller } from '../auth/caller.js';
import { parentOf } from '../core/uidp.js';
import { remoteAddressKey } from '../core/remote-address.js';
import { resourceTypeOfEvent } from '../events/audit/audit-writer.js';
import { recordDenied } from '../events/audit/denied-attempt.js';
import { events } from '../gen/berth/annotations/v1/annotations_pb.js';
import type { Store } from '../store/store.js';
import { errorDomainOf } from '../core/error-domain.js';
import { findNulString } from '../core/nul-strings.js';
import { nulInString } from '../core/request-errors.js';
import { noteCaller, requestRecordKey } from '../core/request-record.js';
import { streamNotGuarded } from './errors.js';
import { normalizeError } from './normalize-error.js';

export interface GuardDeps {
  authenticator: Authenticator;
  logger: Logger;
  /** Notes a full disk for /healthz. */
  storage?: StorageHealth;
  /** Where refused mutations are audited; none, none audited (tests of the guard alone). */
  store?: Store;
}

type Handler = (req: Message, ctx: HandlerContext) => Promise<Message>;

export interface GuardOptions {
  /** Request-only checks run after authentication, before authorization. */
  preflights?: Preflights;
  /** RPCs anonymous by their annotation (iam disabled) still need a valid token, of any identity. */
  requireToken?: boolean;
}

/** What a streaming method is served as: the refusal, in the shape Connect expects for its kind. */
function refusedStream(method: DescMethod, domain: string): unknown {
  const refusal = () => streamNotGuarded(domain, `${method.parent.typeName}/${method.name}`);
  if (method.methodKind === 'client_streaming') {
    return async () => {
      throw refusal();
    };
  }
  // Server and bidi streaming: an iterator whose first step fails.
  // biome-ignore lint/correctness/useYield: it yields nothing, on purpose
  return async function* () {
    throw refusal();
  };
}

/** The resource type a mutating RPC's refusal is recorded under; undefined for an RPC that changes nothing. */
function mutationOf(method: DescMethod): { resourceType: string } | undefined {
  if (!hasOption(method, events)) return undefined;
  const e = getOption(method, events);
  // `none`: a check or a re-send, audited neither when it runs nor when it is refused.
  return e.none || e.type === '' ? undefined : { resourceType: resourceTypeOfEvent(e.type) };
}

/** Audits a refused mutation (the refusal itself is thrown by the caller). */
async function auditRefusal(deps: GuardDeps, rule: AccessRule, method: DescMethod, req: Message, ctx: HandlerContext, caller: Caller, resourceType: string) {
  if (!deps.store || caller.anonymous) return;
  let at = parentOf(caller.identityUid);
  if (!rule.unscoped) {
    try {
      at = scopeUid(method, req, '');
    } catch {
      // Unreachable: authorization read the same uid before refusing.
    }
  }
  await recordDenied(deps.store, deps.logger, {
    at,
    identity: caller.identityUid,
    action: `${method.parent.typeName}/${method.name}`,
    resourceType,
    address: ctx.values.get(remoteAddressKey),
  });
}

export function guard<S extends DescService>(service: S, impl: ServiceImpl<S>, deps: GuardDeps, opts: GuardOptions = {}): ServiceImpl<S> {
  const preflights = opts.preflights ?? {};
  const domain = errorDomainOf(service);
  const out: Record<string, unknown> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') {
      out[method.localName] = refusedStream(method, domain);
      continue;
    }
    const fn = (impl as Record<string, unknown>)[method.localName];
    if (typeof fn !== 'function') continue;
    const rule = accessRuleOf(method); // throws at start for an RPC without a rule
    const authenticate = !rule.anonymous || opts.requireToken === true;
    const handler = fn.bind(impl) as Handler;
    const preflight = preflights[method.localName];
    const where = { rpc: `${service.typeName}/${method.name}`, resourceType: method.output.typeName };
    const mutation = mutationOf(method);
    out[method.localName] = async (req: Message, ctx: HandlerContext) => {
      let caller: Caller | undefined;
      try {
        const nul = findNulString(method.input, req as unknown as Record<string, unknown>);
        if (nul) throw nulInString(domain, nul);
        if (authenticate) {
          caller = await deps.authenticator.authenticate(ctx.requestHeader.get('authorization'), domain);
          preflight?.(req);
          await authorize(rule, method, req, caller, domain);
          ctx.values.set(callerKey, caller);
          noteCaller(ctx.values.get(requestRecordKey), caller.identityUid); // for the access log
        }
        return await handler(req, ctx);
      } catch (err) {
        const refused = normalizeError(err, domain, deps.logger, where, deps.storage);
        if (mutation && caller && refused.code === Code.PermissionDenied) await auditRefusal(deps, rule, method, req, ctx, caller, mutation.resourceType);
        throw refused;
      }
    };
  }
  return out as ServiceImpl<S>;
}
