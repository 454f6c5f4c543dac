// The signature algorithms Berth accepts on tokens it did not mint (external
// ID tokens, static-key assertions): asymmetric ones only. Naming them for
// jose refuses `alg: none`, HMAC (whose "secret" would be a public key: key
// confusion) and anything else a token's header might ask for.
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
