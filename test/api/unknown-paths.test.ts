// Every path Berth does not serve — under any domain prefix or none — answers
// the structured {code: 5, message, details: [ErrorInfo]} body with 404,
// never the web framework's default body. (`GET /` is the web console's page;
// a method it does not serve there is still the structured 404.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

describe('unknown paths', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  for (const [method, path, domain] of [
    ['GET', '/vulnerabilities/v2/x', 'vulnerabilities.berth.dev'],
    ['GET', '/events/v2/x', 'events.berth.dev'],
    ['POST', '/events/v2/notifications/nothing', 'events.berth.dev'],
    ['GET', '/nothing-here', 'nothing-here.berth.dev'],
    ['POST', '/', 'api.berth.dev'],
    ['DELETE', '/registry/v3/repos', 'registry.berth.dev'],
  ] as const) {
    it(`${method} ${path}`, async () => {
      for (const auth of [undefined, token]) {
        const r = await rest(berth.url, method, path, { token: auth });
        assert.equal(r.status, 404, r.text);
        assert.match(r.headers.get('content-type') ?? '', /application\/json/);
        assert.equal(r.json.code, 5);
        assert.match(r.json.message, /^Not found: /);
        const info = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
        assert.deepEqual(info, { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'NOT_FOUND', domain });
      }
    });
  }

  it('answers a path it cannot decode with the structured 400', async () => {
    const r = await rest(berth.url, 'GET', '/iam/%ff%00/x', { token });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, 3);
    assert.equal(r.json.details[0].reason, 'INVALID_ARGUMENT');
    assert.equal(r.json.details[0].domain, 'iam.berth.dev');
  });
});
