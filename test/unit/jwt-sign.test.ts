// The issuer signs with node:crypto (src/auth/jwt-sign.ts); what it signs must
// verify with jose (how Berth and every receiver check it) for both key types,
// and the DER → r‖s conversion must hold for signatures whose integers are
// short or carry a sign byte.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { derToJose } from '../../src/auth/ecdsa-signature.js';
import { signJwt } from '../../src/auth/jwt-sign.js';

describe('JWT signing with node:crypto', () => {
  it('converts DER ECDSA signatures to what ieee-p1363 verification accepts, short integers included', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    let short = 0;
    for (let i = 0; i < 3000; i++) {
      const data = randomBytes(24);
      const der = sign('sha256', data, privateKey);
      // 0x30 len 0x02 rlen: an r of under 32 bytes (without its sign byte) is the rare case.
      if (der[3] < 32 || der[5 + der[3]] < 32) short++;
      const jose = derToJose(der, 32);
      assert.equal(jose.length, 64);
      assert.ok(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose), `signature ${i} does not verify`);
    }
    assert.ok(short > 0, 'no short integer came up in 3000 signatures: the rare case went untested');
  });

  it('refuses malformed DER rather than signing garbage', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = sign('sha256', Buffer.from('x'), privateKey);
    assert.throws(() => derToJose(der.subarray(0, der.length - 1), 32), /malformed/);
    assert.throws(() => derToJose(Buffer.concat([der, Buffer.from([0])]), 32), /malformed/);
    assert.throws(() => derToJose(Buffer.from([0x31, ...der.subarray(1)]), 32), /malformed/);
    assert.throws(() => derToJose(Buffer.from([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x00]), 32), /malformed/);
    // An integer longer than the curve allows.
    const long = Buffer.from([0x30, 0x26, 0x02, 0x21, 0x01, ...Buffer.alloc(32, 1), 0x02, 0x01, 0x01]);
    assert.throws(() => derToJose(long, 32), /malformed/);
  });

  for (const [algorithm, pair] of [
    ['ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
    ['RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ] as const) {
    it(`signs ${algorithm} tokens that jose verifies, with the header and claims given`, async () => {
      const { privateKey, publicKey } = pair();
      const key = { kid: 'k1', algorithm, privateKey };
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 50; i++) {
        const token = signJwt(key, { iss: 'http://berth.test', sub: `s${i}`, aud: 'customer', iat: now, exp: now + 60, 'webhook.digest': 'sha256:ab' });
        assert.deepEqual(decodeProtectedHeader(token), { alg: algorithm, kid: 'k1', typ: 'JWT' });
        const { payload } = await jwtVerify(token, publicKey, { issuer: 'http://berth.test', audience: 'customer', algorithms: [algorithm] });
        assert.equal(payload.sub, `s${i}`);
        assert.equal(payload['webhook.digest'], 'sha256:ab');
      }
      // A token changed after signing does not verify.
      const token = signJwt(key, { iss: 'http://berth.test', sub: 'a', aud: 'customer', exp: now + 60 });
      const [h, , s] = token.split('.');
      const forged = `${h}.${Buffer.from(JSON.stringify({ iss: 'http://berth.test', sub: 'b', aud: 'customer', exp: now + 60 })).toString('base64url')}.${s}`;
      await assert.rejects(jwtVerify(forged, publicKey, { algorithms: [algorithm] }), /signature verification failed/);
    });
  }

  it('refuses an algorithm it cannot sign with', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    assert.throws(() => signJwt({ kid: 'k', algorithm: 'EdDSA', privateKey }, { sub: 'x' }), /not supported/);
  });
});
