// Changing the operator's secrets key (berth admin secrets-key change): every
// value sealed with it — the issuer's signing keys, identity providers' client
// secrets, event subscriptions' signing secrets — is opened with the current
// key and sealed with the new one, in one transaction, so a value the current
// key does not open changes nothing at all. Values stored in plaintext (from
// before there was a key) are sealed too. Each domain re-seals its own rows.
import type { KeyObject } from 'node:crypto';
import { resealSigningKeys } from '../auth/signing-keys.js';
import { resealSigningSecrets } from '../events/subscriptions/signing-secret.js';
import { resealClientSecrets } from '../iam/identity-providers/client-secret.js';
import type { Store } from '../store/store.js';
import { transact } from '../store/transact.js';

export interface SecretsKeyChange {
  signingKeys: number;
  clientSecrets: number;
  webhookSecrets: number;
}

export function changeSecretsKey(store: Store, current: KeyObject | undefined, next: KeyObject): Promise<SecretsKeyChange> {
  return transact(store, async (tx) => ({
    signingKeys: await resealSigningKeys(tx, current, next),
    clientSecrets: await resealClientSecrets(tx, current, next),
    webhookSecrets: await resealSigningSecrets(tx, current, next),
  }));
}
