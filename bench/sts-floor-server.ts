// The floor of a token exchange, for bench/sts.ts: a bare Fastify route that
// does only what the contract cannot do without — verify the external RS256 ID
// token with jose against its JWKS, seal a refresh token as Berth does
// (src/auth/refresh-token-seal.ts: an HMAC, no write) and sign an ES256 token
// the way Berth does (src/auth/jwt-sign.ts) — with none of Berth's layers (no
// identity lookup, no claim matching, no last-seen bookkeeping).
// Usage: node dist/bench/sts-floor-server.js '<JWKS JSON>' <issuer>
import { generateKeyPairSync } from 'node:crypto';
import Fastify from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { v7 as timeOrderedUuid } from 'uuid';
import { signJwt } from '../src/auth/jwt-sign.js';
import { RefreshTokenSeal } from '../src/auth/refresh-token-seal.js';

const [jwksJson, iss] = process.argv.slice(2);
const jwks = createLocalJWKSet(JSON.parse(jwksJson));
const key = { kid: 'floor', algorithm: 'ES256', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey };
const sealer = new RefreshTokenSeal(key);
const AUD = 'http://berth';

const app = Fastify();
app.post('/sts/exchange', async (req) => {
  const assertion = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const { payload } = await jwtVerify(assertion, jwks, { issuer: iss, algorithms: ['RS256'], requiredClaims: ['exp'] });
  const sub = String(payload.sub);
  const refresh = sealer.seal(timeOrderedUuid(), 0, { identityUid: sub, audience: AUD, narrowing: {} });
  const t = Math.floor(Date.now() / 1000);
  const token = signJwt(key, { iss: AUD, sub, aud: AUD, iat: t, nbf: t - 5, exp: t + 3600 });
  return { token, refreshToken: refresh.token, expiry: new Date((t + 3600) * 1000).toISOString() };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`floor at ${address}`);
