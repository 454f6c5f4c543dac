// What an RPC requires, read from its (berth.annotations.v1.iam) option, and
// the check itself: the capabilities at the uid in the request's iam_scope
// field, against the caller's current grants, before the implementation runs
// (permission before existence: only the caller's bindings and the uid are
// read, never the resource). Free of any transport, so every listener — the
// Connect/REST one, the registry — authorizes the same way.
import type { DescField, DescMessage, DescMethod, Message } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { iam, iam_scope } from '../gen/berth/annotations/v1/annotations_pb.js';
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { badRequest } from '../core/request-errors.js';
import { isValidUid } from '../core/uidp.js';
import type { Caller } from './caller.js';

export interface AccessRule {
  /** No token needed (e.g. ping). */
  anonymous: boolean;
  /** Authenticated, but the implementation checks permission itself (lists, root organizations). */
  unscoped: boolean;
  capabilities: readonly Capability[];
}

/** The rule of an RPC. Default deny: an RPC without the option cannot be served at all. */
export function accessRuleOf(method: DescMethod): AccessRule {
  const rule = hasOption(method, iam) ? getOption(method, iam) : undefined;
  if (!rule || rule.mode.case === undefined) throw new Error(`${method.parent.typeName}.${method.name} has no (berth.annotations.v1.iam) option`);
  if (rule.mode.case !== 'enabled') return { anonymous: true, unscoped: true, capabilities: [] };
  return { anonymous: false, unscoped: rule.mode.value.unscoped, capabilities: rule.mode.value.capabilities };
}

const scopeFields = new WeakMap<DescMessage, DescField | null>();

/** The request field marked iam_scope (looked up once per message type). */
function scopeField(schema: DescMessage): DescField | undefined {
  const known = scopeFields.get(schema);
  if (known !== undefined) return known ?? undefined;
  const found = schema.fields.find((f) => hasOption(f, iam_scope) && getOption(f, iam_scope));
  scopeFields.set(schema, found ?? null);
  return found;
}

/** The uid a scoped RPC is checked at, following a message-typed scope field to its own scope field. */
export function scopeUid(method: DescMethod, req: Message, domain: string): string {
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

/** Throws PERMISSION_DENIED unless the caller holds the rule's capabilities at the request's scope. */
export async function authorize(rule: AccessRule, method: DescMethod, req: Message, caller: Caller, domain: string): Promise<void> {
  if (rule.anonymous || rule.unscoped) return;
  await caller.require(domain, rule.capabilities, scopeUid(method, req, domain));
}

/**
 * Checks an RPC may run after authentication and before authorization, from
 * the request alone (no reads), for answers that do not depend on the caller's
 * rights — e.g. "built-in roles cannot be changed", whose uids are public.
 */
export type Preflight = (req: Message) => void;
export type Preflights = Readonly<Record<string, Preflight>>;
