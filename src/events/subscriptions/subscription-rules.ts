// What a new subscription must satisfy, named as the request names its fields
// (`subscription.sink` in both API versions): a sink Berth may deliver to
// (sink-address.ts) and, in v2, a well-formed signing secret.
import type { FieldViolation } from '../../core/api-error.js';
import { sinkUrlProblem } from '../sink-address.js';
import { signingSecretViolation } from './signing-secret.js';

export interface NewSubscription {
  sink: string;
  /** '' for none. */
  signingSecret: string;
}

export function subscriptionViolations(s: NewSubscription, allowInsecureSinks: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  const sink = sinkUrlProblem(s.sink, allowInsecureSinks);
  if (sink) out.push({ field: 'subscription.sink', description: sink });
  const secret = signingSecretViolation(s.signingSecret, 'subscription.signing_secret');
  if (secret) out.push(secret);
  return out;
}
