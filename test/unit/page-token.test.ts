// Page tokens: authenticated, bound to their query, and expired after 3 days
// (an expired token makes the list restart from the first page, silently).
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { PAGE_TOKEN_TTL_MS, PageTokens } from '../../src/list/page-token.js';

describe('page tokens', () => {
  const key = randomBytes(32);
  let now = 1_000_000;
  const tokens = new PageTokens(key, () => now);
  const cursor = { value: 'nginx', uid: '0475f6baca584a8964a6bce6b74dbe78dd8805b6/b74ce966caf448d1' };

  it('round-trips a cursor for the same query', () => {
    const t = tokens.issue('q1', cursor);
    assert.deepEqual(tokens.check(t, 'q1'), { kind: 'cursor', cursor });
  });

  it('rejects a token used with another query', () => {
    assert.equal(tokens.check(tokens.issue('q1', cursor), 'q2').kind, 'invalid');
  });

  it('rejects edited, forged and other-key tokens', () => {
    const t = tokens.issue('q1', cursor);
    const [body, mac] = t.split('.');
    const edited = `${Buffer.from(Buffer.from(body, 'base64url').toString().replace('nginx', 'zzzzz')).toString('base64url')}.${mac}`;
    assert.equal(tokens.check(edited, 'q1').kind, 'invalid');
    assert.equal(tokens.check('abc.def', 'q1').kind, 'invalid');
    assert.equal(tokens.check('x'.repeat(5000), 'q1').kind, 'invalid');
    assert.equal(new PageTokens(randomBytes(32), () => now).check(t, 'q1').kind, 'invalid');
  });

  it('accepts a token of the HMAC form earlier releases issued, and no other MAC', () => {
    const [body, mac] = tokens.issue('q1', cursor).split('.');
    const legacy = createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url');
    assert.notEqual(legacy, mac);
    assert.deepEqual(tokens.check(`${body}.${legacy}`, 'q1'), { kind: 'cursor', cursor });
    const otherKey = createHmac('sha256', randomBytes(32)).update(body).digest().subarray(0, 16).toString('base64url');
    assert.equal(tokens.check(`${body}.${otherKey}`, 'q1').kind, 'invalid');
    assert.equal(tokens.check(`${body}.${mac.slice(0, -1)}`, 'q1').kind, 'invalid');
  });

  it('expires after 3 days', () => {
    const t = tokens.issue('q1', cursor);
    now += PAGE_TOKEN_TTL_MS - 1;
    assert.equal(tokens.check(t, 'q1').kind, 'cursor');
    now += 2;
    assert.equal(tokens.check(t, 'q1').kind, 'expired');
  });
});
