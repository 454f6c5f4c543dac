// The --terms-file format: what parseTermsFile accepts and how it says what is wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTermsFile } from '../../src/iam/terms/terms-documents.js';

const doc = (over: Record<string, unknown> = {}) => ({ id: 'tos.v1', label: 'Terms of Service', url: 'https://example.com/tos', ...over });

describe('terms file', () => {
  it('reads the documents in order', () => {
    const docs = parseTermsFile(JSON.stringify({ documents: [doc(), doc({ id: 'dpa.v2', url: 'http://intranet.example/dpa' })] }));
    assert.deepEqual(
      docs.map((d) => d.id),
      ['tos.v1', 'dpa.v2'],
    );
    assert.deepEqual(parseTermsFile('{"documents": []}'), []);
  });

  it('says what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['{not json', /not JSON/],
      ['[]', /expected \{"documents"/],
      ['{"docs": []}', /expected \{"documents"/],
      [JSON.stringify({ documents: [], extra: 1 }), /unknown top-level keys "extra"/],
      [JSON.stringify({ documents: ['tos.v1'] }), /documents\[0\] must be an object/],
      [JSON.stringify({ documents: [doc({ id: 'Bad Id' })] }), /documents\[0\]\.id must match/],
      [JSON.stringify({ documents: [doc({ id: 7 })] }), /documents\[0\]\.id/],
      [JSON.stringify({ documents: [doc({ label: '' })] }), /documents\[0\]\.label/],
      [JSON.stringify({ documents: [doc({ label: 'a\u0000b' })] }), /documents\[0\]\.label/],
      [JSON.stringify({ documents: [doc({ url: 'ftp://e.x/tos' })] }), /documents\[0\]\.url/],
      [JSON.stringify({ documents: [doc({ url: 'not a url' })] }), /documents\[0\]\.url/],
      [JSON.stringify({ documents: [doc({ text: 'inline' })] }), /unknown keys "text"/],
      [JSON.stringify({ documents: [doc(), doc({ label: 'again' })] }), /"tos\.v1" appears twice/],
      [JSON.stringify({ documents: Array.from({ length: 101 }, (_, i) => doc({ id: `d${i}` })) }), /at most 100 documents/],
    ];
    for (const [text, message] of cases) assert.throws(() => parseTermsFile(text), message, text.slice(0, 80));
  });
});
