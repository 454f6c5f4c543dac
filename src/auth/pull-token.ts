// A pull token's password: a long-lived JWT its identity's private key signed
// once (the CLI then threw the key away), presented at the registry's /token
// with the identity uid as username. Accepted while the identity exists and
// its keys are valid; deleting the identity revokes it on the next request.
// Unlike an STS assertion it is not single-use and has no maximum age, so only
// identities whose static keys name the pull-token issuer take it: an ordinary
// static-keys identity's one-shot assertion is never a password.
import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { Identity_StaticKeys } from '../gen/berth/iam/v2/identities_pb.js';
import { PULL_TOKEN_ISSUER } from './pull-token-issuer.js';
import { verifyStaticKeysJwt } from './static-assertion.js';

/** Resolves when `password` is this pull-token identity's token for `registryHost`; throws otherwise. */
export async function verifyPullToken(sk: Identity_StaticKeys, password: string, registryHost: string): Promise<void> {
  if (sk.issuer !== PULL_TOKEN_ISSUER) throw new Error('not a pull-token identity');
  if (sk.audiences.length > 0 && !sk.audiences.includes(registryHost)) throw new Error('the identity is for another registry');
  const payload = await verifyStaticKeysJwt(sk, password, { audience: [registryHost], requiredClaims: ['exp'] });
  // A token may not outlive its keys (the CLI signs exp = expiration_time).
  if (sk.expirationTime && Number(payload.exp) * 1000 > timestampMs(sk.expirationTime)) throw new Error('the token outlives its keys');
}
