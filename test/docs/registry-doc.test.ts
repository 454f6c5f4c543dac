// docs/registry.md cannot drift from the registry's error list: its table
// holds exactly the codes of src/oci/oci-errors.ts, each with its HTTP status.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { OCI_ERROR_CODES } from '../../src/oci/oci-errors.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'registry.md'), 'utf8');

describe('docs/registry.md', () => {
  it('lists every OCI error code with its HTTP status, and no other', () => {
    const begin = doc.indexOf('<!-- the OCI error codes');
    const end = doc.indexOf('<!-- the OCI error codes: end -->');
    assert.ok(begin >= 0 && end > begin, 'the table markers are present');
    const rows = [...doc.slice(begin, end).matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const expected = Object.entries(OCI_ERROR_CODES).map(([code, e]) => [code, e.status]);
    assert.deepEqual(rows, expected);
  });
});
