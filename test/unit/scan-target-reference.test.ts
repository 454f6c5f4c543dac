// The image a scanner report is imported for: ORG/IMAGE[:TAG|@DIGEST].
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseScanTarget } from '../../src/cli/scan-target-reference.js';

const D = `sha256:${'a'.repeat(64)}`;

describe('berth images scans import --image', () => {
  it('takes a tag (default latest) or a digest', () => {
    assert.deepEqual(parseScanTarget('acme/tools/app:1.0'), { name: 'acme/tools/app', reference: '1.0' });
    assert.deepEqual(parseScanTarget('acme/app'), { name: 'acme/app', reference: 'latest' });
    assert.deepEqual(parseScanTarget(`acme/app@${D}`), { name: 'acme/app', reference: D });
  });

  it('refuses a malformed digest, a tag with a digest, and no organization', () => {
    assert.throws(() => parseScanTarget('acme/app@sha256:abc'), /is not a digest/);
    assert.throws(() => parseScanTarget(`acme/app:1.0@${D}`), /a tag or a digest, not both/);
    assert.throws(() => parseScanTarget('app:1.0'), /names no organization/);
  });
});
