// The floor of a token exchange, for bench/sts.ts: a bare Fastify route that
// does only what the contract cannot do without — verify the external RS256 ID
// token with jose against its JWKS, write one refresh-token row in its own
// node:sqlite transaction (WAL, synchronous NORMAL, the refresh_tokens table
// and indexes of migration 0010, ids made as Berth makes them) and
// sign an ES256 token the way Berth does (src/auth/jwt-sign.ts) — with none of
// Berth's layers (no identity lookup, no group commit, no query builder).
// Usage: node dist/bench/sts-floor-server.js <sqlite file> '<JWKS JSON>' <issuer>
import { generateKeyPairSync } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { v7 as timeOrderedUuid } from 'uuid';
import { signJwt } from '../src/auth/jwt-sign.js';
import { newRefreshToken } from '../src/auth/refresh-tokens.js';

const [file, jwksJson, iss] = process.argv.slice(2);
const jwks = createLocalJWKSet(JSON.parse(jwksJson));
const db = new DatabaseSync(file);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
db.exec(`create table refresh_tokens (id text primary key, chain_id text not null, identity_uid text not null, audience text not null,
  narrowing text not null default '{}', used integer not null default 0, expire_time text not null, create_time text not null)`);
for (const column of ['chain_id', 'identity_uid', 'expire_time']) db.exec(`create index refresh_tokens_${column} on refresh_tokens (${column})`);
const insert = db.prepare('insert into refresh_tokens values (?, ?, ?, ?, ?, 0, ?, ?)');
const begin = db.prepare('begin immediate');
const commit = db.prepare('commit');
const key = { kid: 'floor', algorithm: 'ES256', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey };
const AUD = 'http://berth';

const app = Fastify();
app.post('/sts/exchange', async (req) => {
  const assertion = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const { payload } = await jwtVerify(assertion, jwks, { issuer: iss, algorithms: ['RS256'], requiredClaims: ['exp'] });
  const now = Date.now();
  const { token: refreshToken, id } = newRefreshToken(now);
  begin.run();
  try {
    insert.run(id, timeOrderedUuid(), String(payload.sub), AUD, '{}', new Date(now + 7 * 86_400_000).toISOString(), new Date(now).toISOString());
    commit.run();
  } catch (err) {
    db.exec('rollback');
    throw err;
  }
  const t = Math.floor(now / 1000);
  const token = signJwt(key, { iss: AUD, sub: String(payload.sub), aud: AUD, iat: t, nbf: t - 5, exp: t + 3600 });
  return { token, refreshToken, expiry: new Date((t + 3600) * 1000).toISOString() };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`floor at ${address}`);
