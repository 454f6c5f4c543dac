// What one delivery attempt sends: a CloudEvent in HTTP binary mode (the
// `cloudevents` package writes the ce-* headers), the body
// {"actor": …, "body": …} assembled from the outbox's stored JSON (so its
// bytes are exactly what was stored), an Authorization bearer token from
// Berth's issuer whose `webhook.digest` claim is the sha256 of those bytes,
// and, when the subscription has a secret, a Standard Webhooks signature.
// (delivery-tokens.ts reuses a token for the same group and body.)
// The ce-id is the event's id on every attempt and every subscription.
import type { Selectable } from 'kysely';
import type { EventOutboxTable } from '../events-tables.js';
import { createHash } from 'node:crypto';
import { CloudEvent, HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import type { DeliveryTokens } from './delivery-tokens.js';

export type OutboxEvent = Omit<Selectable<EventOutboxTable>, 'id' | 'audience' | 'fanned_out'>;

export interface MessageContext {
  tokens: DeliveryTokens;
  /** The API URL: ce-source and the token's iss. */
  source: string;
  /** --event-namespace. */
  namespace: string;
  /** --event-audience: ce-audience (and the tokens' aud). */
  audience: string;
}

// Attributes the spec defines, which an extension must not overwrite.
const RESERVED = new Set(['id', 'source', 'specversion', 'type', 'subject', 'time', 'datacontenttype', 'dataschema', 'data', 'data_base64']);
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;
const HEADER_VALUE = /^[\x20-\x7e]{0,1024}$/;

/** The extension attributes of the stored event: the row's, plus group, audience and bodytype. */
function extensionsOf(e: OutboxEvent, audience: string): Record<string, string> {
  const out: Record<string, string> = { group: e.group_uid };
  let stored: unknown;
  try {
    stored = JSON.parse(e.extensions);
  } catch {
    stored = {};
  }
  for (const [name, value] of Object.entries(stored && typeof stored === 'object' ? stored : {})) {
    // What cannot travel as a header is left out rather than sent broken.
    if (typeof value === 'string' && EXTENSION_NAME.test(name) && !RESERVED.has(name) && HEADER_VALUE.test(value)) out[name] = value;
  }
  out.audience = audience;
  if (HEADER_VALUE.test(e.body_type)) out.bodytype = e.body_type;
  return out;
}

export interface DeliveryMessage {
  headers: Record<string, string>;
  body: Buffer;
}

export async function deliveryMessage(
  ctx: MessageContext,
  e: OutboxEvent,
  /** The group the subscription belongs to: the token's subject is webhook:<it>. */
  subscriptionGroup: string,
  signingSecret: string | undefined,
  now: Date,
): Promise<DeliveryMessage> {
  const text = `{"actor":${e.actor},"body":${e.body}}`;
  const body = Buffer.from(text, 'utf8');
  const event = new CloudEvent({
    ...extensionsOf(e, ctx.audience),
    id: e.event_id,
    source: ctx.source,
    specversion: '1.0',
    type: `${ctx.namespace}.${e.type}`,
    subject: e.subject,
    time: e.create_time,
    datacontenttype: 'application/json',
    data: text,
  });
  const message = HTTP.binary(event);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers)) headers[k.toLowerCase()] = String(v);
  headers['content-type'] = 'application/json';
  headers['user-agent'] = 'Berth-Webhook/1';
  const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  headers.authorization = `Bearer ${await ctx.tokens.token(subscriptionGroup, digest)}`;
  if (signingSecret !== undefined) {
    headers['webhook-id'] = e.event_id;
    headers['webhook-timestamp'] = String(Math.floor(now.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(signingSecret).sign(e.event_id, now, text);
  }
  return { headers, body };
}
