// The event of a mutating RPC, as its proto method declares it
// (berth.annotations.v1.events): the type, audience and extensions come from
// the annotation, the actor from the caller, and the body is the given
// message in the same proto3 JSON the REST API answers with (INPUT_ONLY
// fields, such as secrets, never appear). Call it with the transaction of the
// change, so the event commits with it.
import { getOption, type DescMessage, type DescMethod, type MessageShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerKey } from '../auth/caller.js';
import { remoteAddressKey } from '../core/remote-address.js';
import { EventAttributes_Audience, events, type EventAttributes } from '../gen/berth/annotations/v1/annotations_pb.js';
import { messageToJson } from '../core/json-writer.js';
import type { Tx } from '../store/transact.js';
import { emitEvent } from './outbox.js';

export interface RpcEvent<D extends DescMessage> {
  /** The group whose subscriptions, and its ancestors', receive the event. */
  group: string;
  /** The uid of the resource the event is about. */
  subject: string;
  /** The body: the v2 message (the resource written, or the delete request). */
  schema: D;
  message: MessageShape<D>;
  /** Values of extensions the annotation lists other than `group` (e.g. identityprovider). */
  extensions?: Record<string, string>;
}

// Per method: reading an option decodes it from the descriptor every time,
// a visible share of a create's CPU (docs/performance.md).
const declared = new WeakMap<DescMethod, EventAttributes>();

/** The event a method declares; throws when it declares none (a mutating RPC must). */
export function eventOfMethod(method: DescMethod): EventAttributes {
  const known = declared.get(method);
  if (known) return known;
  const attrs = getOption(method, events);
  if (attrs.none || attrs.type === '') throw new Error(`${method.parent.typeName}.${method.name} declares no event (berth.annotations.v1.events)`);
  declared.set(method, attrs);
  return attrs;
}

/**
 * Writes the event `method` declares inside `tx`, for writes made outside
 * that RPC (a repo created by a push, a registration at first sign in): the
 * same type, audience and body shape wherever the change comes from.
 */
export async function emitDeclaredEvent<D extends DescMessage>(
  tx: Tx,
  method: DescMethod,
  e: RpcEvent<D> & { actor?: string; audit?: { action?: string; address?: string } },
): Promise<string> {
  const attrs = eventOfMethod(method);
  // A body the annotation names is what the docs say the event carries: hold the code to it.
  if (attrs.body !== '' && attrs.body !== e.schema.typeName) throw new Error(`${method.name} declares a ${attrs.body} body, not ${e.schema.typeName}`);
  const extensions: Record<string, string> = {};
  for (const name of attrs.extensions) {
    const value = name === 'group' ? e.group : e.extensions?.[name];
    if (value !== undefined && value !== '') extensions[name] = value;
  }
  return emitEvent(tx, {
    type: attrs.type,
    audience: attrs.audience === EventAttributes_Audience.CUSTOMER ? 'customer' : 'internal',
    group: e.group,
    subject: e.subject,
    actor: e.actor === '' ? undefined : e.actor,
    body: messageToJson(e.schema, e.message as never),
    bodyType: e.schema.typeName,
    extensions,
    audit: { action: e.audit?.action ?? rpcName(method), address: e.audit?.address ?? '' },
  });
}

const rpcName = (m: DescMethod): string => `${m.parent.typeName}/${m.name}`;

/**
 * Writes the event `ctx.method` declares to the outbox inside `tx`, the
 * caller as its actor; `method` names another RPC's event when the call made
 * that RPC's change (a v1 create that updates the repo of its name).
 */
export function emitRpcEvent<D extends DescMessage>(tx: Tx, ctx: HandlerContext, e: RpcEvent<D>, method: DescMethod = ctx.method): Promise<string> {
  const caller = ctx.values.get(callerKey);
  return emitDeclaredEvent(tx, method, {
    ...e,
    actor: caller && !caller.anonymous ? caller.identityUid : undefined,
    // The RPC called (a v1 method writing its v2 twin's event is audited as itself).
    audit: { action: rpcName(ctx.method), address: ctx.values.get(remoteAddressKey) },
  });
}
