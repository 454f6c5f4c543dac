// Setting up the delivery worker's tests against a running Berth: `subscribe`
// inserts an event_subscriptions row and `emit` writes an outbox row with
// emitEvent inside transact(), from this test process, as the API would. The
// worker's tests need what the API cannot give them: sinks the API refuses
// (the delivery-time guard is what is tested) and exact sequences of events
// per subject. test/events/end-to-end.test.ts goes through the public API.
import { randomBytes } from 'node:crypto';
import { secretsKeyFrom } from '../../src/auth/secret-sealing.js';
import { storedSigningSecret } from '../../src/events/subscriptions/signing-secret.js';
import { emitEvent, type NewEvent } from '../../src/events/outbox.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { rest } from './api-client.js';
import type { Berth } from './berth-process.js';
import { sqlQuery } from './database.js';

/**
 * The subscription's newest delivery log entry once it says DELIVERED (or
 * what it says after 5 s): a receiver has the request before Berth has read
 * the answer and recorded it, so the log catches up a moment after the receiver.
 */
export async function recordedDelivery(berth: Pick<Berth, 'url'>, token: string, sub: string): Promise<Record<string, unknown> | undefined> {
  let entry: Record<string, unknown> | undefined;
  for (let i = 0; i < 100 && entry?.status !== 'DELIVERED'; i++) {
    const r = await rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries`, { token });
    if (r.status !== 200) throw new Error(`delivery log: ${r.status} ${r.text}`);
    [entry] = r.json.deliveries as Array<Record<string, unknown>>;
    if (entry?.status !== 'DELIVERED') await new Promise((done) => setTimeout(done, 50));
  }
  return entry;
}

/** A Standard Webhooks secret ("whsec_" + base64 of 32 random bytes). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A subscription of `parent` delivering to `sink`; its uid. With a signing
 * secret, `secretsKey` is the server's --secrets-key-file text (the secret is
 * stored sealed with it, as the Subscriptions API stores it).
 */
export async function subscribe(
  berth: Pick<Berth, 'dataDir' | 'databaseUrl'>,
  parent: string,
  sink: string,
  opts: { signingSecret?: string; secretsKey?: string } = {},
): Promise<string> {
  const uid = `${parent}/${randomBytes(8).toString('hex')}`;
  const key = opts.secretsKey === undefined ? undefined : secretsKeyFrom(opts.secretsKey);
  const secret = storedSigningSecret(key, uid, opts.signingSecret ?? '');
  const now = new Date().toISOString();
  await sqlQuery(berth, 'insert into event_subscriptions (uid, parent_uid, sink, signing_secret, create_time, update_time) values ($1, $2, $3, $4, $5, $5)', [
    uid,
    parent,
    sink,
    secret,
    now,
  ]);
  return uid;
}

export interface TestEvent {
  group: string;
  subject: string;
  /** After the namespace; api.iam.group.updated.v1 by default. */
  type?: string;
  body?: Record<string, unknown>;
  audience?: 'customer' | 'internal';
  actor?: string;
  extensions?: Record<string, string>;
}

/** Writes events into a running Berth's outbox, each committed in its own transaction. */
export class EventSource {
  private constructor(private readonly store: Store) {}

  static async open(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>): Promise<EventSource> {
    return new EventSource(await openStore({ dataDir: berth.dataDir, databaseUrl: berth.databaseUrl, poolSize: 2 }));
  }

  /** Commits the event; its ce-id. */
  emit(e: TestEvent): Promise<string> {
    const event: NewEvent = {
      type: e.type ?? 'api.iam.group.updated.v1',
      audience: e.audience ?? 'customer',
      group: e.group,
      subject: e.subject,
      actor: e.actor,
      body: e.body ?? { uid: e.subject, name: 'n' },
      bodyType: 'berth.iam.v2.Group',
      extensions: { group: e.group, ...(e.extensions ?? {}) },
      // Events made up for delivery tests record no change.
      audit: false,
    };
    return transact(this.store, (tx) => emitEvent(tx, event));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** A uid below `parent`, for event subjects. */
export function childUid(parent: string): string {
  return `${parent}/${randomBytes(8).toString('hex')}`;
}
