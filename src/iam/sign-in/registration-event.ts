// The event of a person registering through an identity provider (their
// first sign in). There is no RPC context here, but its type, audience and
// body are those AuthService.Register declares: one registration event,
// whichever way someone joins a group.
import { create } from '@bufbuild/protobuf';
import { AuthService, SessionSchema } from '../../gen/berth/auth/v1/auth_pb.js';
import { emitDeclaredEvent } from '../../events/rpc-event.js';
import type { Tx } from '../../store/transact.js';

/** Writes the registration of `identity` into `group` inside `tx`; the new identity is its actor. */
export async function registrationEvent(tx: Tx, identity: string, group: string): Promise<void> {
  await emitDeclaredEvent(tx, AuthService.method.register, {
    group,
    subject: identity,
    actor: identity,
    schema: SessionSchema,
    message: create(SessionSchema, { identity, group }),
  });
}
