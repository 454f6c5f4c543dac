// The event of a person registering through an identity provider (their
// first sign in). There is no RPC context here, so it is written with
// emitEvent, but its type and audience are still those AuthService.Register
// declares: one registration event, whichever way someone joins a group.
import { create } from '@bufbuild/protobuf';
import { EventAttributes_Audience } from '../../gen/berth/annotations/v1/annotations_pb.js';
import { AuthService, SessionSchema } from '../../gen/berth/auth/v1/auth_pb.js';
import { emitEvent } from '../../events/outbox.js';
import { eventOfMethod } from '../../events/rpc-event.js';
import { messageToJson } from '../../server/rest/json-writer.js';
import type { Tx } from '../../store/transact.js';

const REGISTERED = eventOfMethod(AuthService.method.register);

/** Writes the registration of `identity` into `group` inside `tx`; the new identity is its actor. */
export async function registrationEvent(tx: Tx, identity: string, group: string): Promise<void> {
  await emitEvent(tx, {
    type: REGISTERED.type,
    audience: REGISTERED.audience === EventAttributes_Audience.CUSTOMER ? 'customer' : 'internal',
    group,
    subject: identity,
    actor: identity,
    body: messageToJson(SessionSchema, create(SessionSchema, { identity, group })),
    bodyType: SessionSchema.typeName,
    extensions: REGISTERED.extensions.includes('group') ? { group } : {},
  });
}
