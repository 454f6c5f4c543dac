// listAll against a fake endpoint that never stops paging: it stops at the bound.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { ApiClient } from '../../src/cli/api-client.js';
import { listAll, MAX_ITEMS } from '../../src/cli/list-all.js';

it('stops an endless listing after MAX_ITEMS with a warning', async (t) => {
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    const url = new URL(req.url ?? '/', 'http://x');
    assert.equal(req.headers.authorization, 'Bearer tok');
    assert.equal(url.searchParams.get('uidp.children_of'), 'p');
    const n = Number(url.searchParams.get('page_size'));
    const items = Array.from({ length: n }, (_, i) => ({ uid: `${calls}-${i}` }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ things: items, nextPageToken: `t${calls}` }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const warn = t.mock.method(process.stderr, 'write', () => true);
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const items = await listAll(new ApiClient(base, 'tok'), 'things', 'things', { 'uidp.children_of': 'p' });
    assert.equal(items.length, MAX_ITEMS);
    assert.equal(calls, MAX_ITEMS / 200);
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0].arguments[0]), /stopped after 10000 items/);
  } finally {
    warn.mock.restore();
    server.close();
  }
});
