// While Berth starts, requests get the same structured body as every other
// error: {code: 14, message, details: [ErrorInfo]}, 503 and Retry-After.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startingResponse } from '../../src/server/api-listener.js';

describe('the starting-up answer', () => {
  it('is the structured UNAVAILABLE with Retry-After', () => {
    const r = startingResponse('/iam/v2/groups');
    assert.equal(r.status, 503);
    assert.equal(r.headers['retry-after'], '1');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(r.body), {
      code: 14,
      message: 'Unavailable: starting',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'UNAVAILABLE', domain: 'iam.berth.dev' }],
    });
  });
});
