// The floor of a webhook delivery, for bench/events.ts: a bare loop, pinned to
// the server's core, that does only what a delivery cannot do without — sign
// a Bearer JWT carrying the body's sha256 (as Berth signs, src/auth/jwt-sign.ts)
// and POST the CloudEvent over a keep-alive connection — with no database, no
// queue and no retries. Prints {"perSecond", "cpuUs"} (CPU per delivery).
// Usage: node dist/bench/events-floor-sender.js <receiver URL> <seconds> <in flight>
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import { signJwt } from '../src/auth/jwt-sign.js';

const [target, secondsArg, inFlightArg] = process.argv.slice(2);
const url = new URL(target);
const agent = new http.Agent({ keepAlive: true });
const key = { kid: 'floor', algorithm: 'ES256', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey };
// About the size of an api.iam.group.updated.v1 body.
const body = JSON.stringify({
  body: { uid: randomUUID(), name: 'bench-0', description: 'x'.repeat(40), createTime: new Date().toISOString(), updateTime: new Date().toISOString() },
  updateMask: 'description',
});

function deliver(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const digest = createHash('sha256').update(body).digest('base64url');
  const token = signJwt(key, { iss: 'http://berth', sub: 'webhook:floor', aud: 'customer', iat: now, exp: now + 300, webhook: { digest } });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'ce-specversion': '1.0',
          'ce-id': randomUUID(),
          'ce-type': 'api.iam.group.updated.v1',
          'ce-source': 'http://berth/iam',
          'ce-subject': 'floor',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(ms: number): Promise<number> {
  let n = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: Number(inFlightArg) }, async () => {
      while (performance.now() < until) {
        await deliver();
        n++;
      }
    }),
  );
  return n;
}

await run(1000); // warm-up
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const n = await run(Number(secondsArg) * 1000);
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ perSecond: n / ((performance.now() - t0) / 1000), cpuUs: (cpu.user + cpu.system) / n }));
agent.destroy();
