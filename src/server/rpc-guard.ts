// Wraps a service implementation for the Connect and REST transports: every
// RPC refuses NUL strings, authenticates (unless anonymous), runs its
// preflight, is authorized from its iam annotation, and leaves as a named
// error — in that order, before the implementation runs. An operator may ask
// for a token on a service whose RPCs are anonymous by their annotation (the
// advisory feed's --feed-requires-auth): `requireToken`.
import type { StorageHealth } from '../runtime/storage-health.js';
import type { DescService, Message } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import { accessRuleOf, authorize, type Preflights } from '../auth/authorize.js';
import { callerKey } from '../auth/caller.js';
import { errorDomainOf } from '../core/error-domain.js';
import { findNulString } from '../core/nul-strings.js';
import { nulInString } from '../core/request-errors.js';
import { normalizeError } from './normalize-error.js';

export interface GuardDeps {
  authenticator: Authenticator;
  logger: Logger;
  /** Notes a full disk for /healthz. */
  storage?: StorageHealth;
}

type Handler = (req: Message, ctx: HandlerContext) => Promise<Message>;

export interface GuardOptions {
  /** Request-only checks run after authentication, before authorization. */
  preflights?: Preflights;
  /** RPCs anonymous by their annotation (iam disabled) still need a valid token, of any identity. */
  requireToken?: boolean;
}

export function guard<S extends DescService>(service: S, impl: ServiceImpl<S>, deps: GuardDeps, opts: GuardOptions = {}): ServiceImpl<S> {
  const preflights = opts.preflights ?? {};
  const domain = errorDomainOf(service);
  const out: Record<string, unknown> = {};
  for (const method of service.methods) {
    const fn = (impl as Record<string, unknown>)[method.localName];
    if (typeof fn !== 'function') continue;
    if (method.methodKind !== 'unary') {
      out[method.localName] = fn.bind(impl);
      continue;
    }
    const rule = accessRuleOf(method); // throws at start for an RPC without a rule
    const authenticate = !rule.anonymous || opts.requireToken === true;
    const handler = fn.bind(impl) as Handler;
    const preflight = preflights[method.localName];
    const where = { rpc: `${service.typeName}/${method.name}`, resourceType: method.output.typeName };
    out[method.localName] = async (req: Message, ctx: HandlerContext) => {
      try {
        const nul = findNulString(method.input, req as unknown as Record<string, unknown>);
        if (nul) throw nulInString(domain, nul);
        if (authenticate) {
          const caller = await deps.authenticator.authenticate(ctx.requestHeader.get('authorization'), domain);
          preflight?.(req);
          await authorize(rule, method, req, caller, domain);
          ctx.values.set(callerKey, caller);
        }
        return await handler(req, ctx);
      } catch (err) {
        throw normalizeError(err, domain, deps.logger, where, deps.storage);
      }
    };
  }
  return out as ServiceImpl<S>;
}
