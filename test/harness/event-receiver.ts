// A real webhook receiver for event delivery tests: a node http server that
// reads each request as a CloudEvent with the `cloudevents` package
// (HTTP.toEvent, binary mode) and verifies it the way a customer would:
// the bearer token through Berth's discovery and JWKS (jose), its iss, aud,
// sub (webhook:<group of the subscription>) and webhook.digest claim (sha256
// of the exact body), and the Standard Webhooks signature when the sink has a
// secret. Every request is recorded, with what the receiver answered and any
// verification problem; tests assert there were none.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HTTP, type CloudEvent } from 'cloudevents';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { Webhook } from 'standardwebhooks';

export interface Received {
  /** The sink path the request came to (without the leading /). */
  sink: string;
  ceId: string;
  type: string;
  subject: string;
  source: string;
  time: string;
  extensions: Record<string, unknown>;
  /** The parsed body: {actor, body}. */
  data: { actor: Record<string, unknown>; body: Record<string, unknown> };
  headers: http.IncomingHttpHeaders;
  claims?: JWTPayload;
  /** What the receiver answered. */
  status: number;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** Verification failures; none for a good delivery. */
  problems: string[];
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

interface SinkSpec {
  /** The subscription's group: the token's sub must be webhook:<it>. */
  group: string;
  /** The Standard Webhooks secret, when the subscription signs. */
  secret?: string;
  /** How to answer; 200 when absent. `n` counts this sink's requests for the same ce-id, from 1. */
  answer?: (event: Received, n: number) => Answer;
}

export class EventReceiver {
  readonly received: Received[] = [];
  private readonly sinks = new Map<string, SinkSpec>();
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  private constructor(
    private readonly server: http.Server,
    /** The issuer the tokens must name: the URL of the Berth (or of each instance) that delivers. */
    private issuers: string[],
    /** The aud the tokens must carry (--event-audience). */
    private readonly audience: string,
  ) {}

  static async start(berthUrl: string, audience = 'customer'): Promise<EventReceiver> {
    let self: EventReceiver | undefined;
    const server = http.createServer((req, res) => {
      void self?.handle(req, res);
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new EventReceiver(server, [berthUrl], audience);
    return self;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Registers a sink path and returns its URL (http://127.0.0.1:<port>/<name>). */
  sink(name: string, spec: SinkSpec): string {
    this.sinks.set(name, spec);
    return `http://127.0.0.1:${this.port}/${name}`;
  }

  /** Berth processes (a restarted one, several instances) have other URLs: tokens may name any of them; keys come from the first's JWKS. */
  acceptIssuers(urls: string[]): void {
    this.issuers = urls;
    this.jwks = undefined;
  }

  of(sink: string): Received[] {
    return this.received.filter((r) => r.sink === sink);
  }

  /** The requests answered 2xx, per sink. */
  deliveredTo(sink: string): Received[] {
    return this.of(sink).filter((r) => r.status >= 200 && r.status < 300);
  }

  problems(): string[] {
    return this.received.flatMap((r) => r.problems.map((p) => `${r.sink} ${r.ceId}: ${p}`));
  }

  async waitFor(what: string, done: () => boolean, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; received ${this.received.length} requests`);
      await sleep(50);
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async keys() {
    if (!this.jwks) {
      const discovery = (await (await fetch(`${this.issuers[0]}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
      this.jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    }
    return this.jwks;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const name = (req.url ?? '/').slice(1).split('?')[0];
    const spec = this.sinks.get(name);
    const problems: string[] = [];
    let event: CloudEvent<unknown> | undefined;
    try {
      event = HTTP.toEvent({ headers: req.headers as Record<string, string>, body: raw.toString('utf8') }) as CloudEvent<unknown>;
    } catch (err) {
      problems.push(`not a CloudEvent: ${(err as Error).message}`);
    }
    if (req.method !== 'POST') problems.push(`method ${req.method}`);
    if (req.headers['content-type'] !== 'application/json') problems.push(`content-type ${req.headers['content-type']}`);
    if (!req.headers['ce-id']) problems.push('no ce-id (not binary mode)');
    if (!spec) problems.push(`unknown sink ${name}`);
    let claims: JWTPayload | undefined;
    const auth = req.headers.authorization ?? '';
    try {
      if (!auth.startsWith('Bearer ')) throw new Error('no bearer token');
      ({ payload: claims } = await jwtVerify(auth.slice(7), await this.keys(), { issuer: this.issuers, audience: this.audience, requiredClaims: ['exp'] }));
      if (spec && claims.sub !== `webhook:${spec.group}`) problems.push(`sub ${claims.sub}, want webhook:${spec.group}`);
      const digest = `sha256:${createHash('sha256').update(raw).digest('hex')}`;
      if (claims['webhook.digest'] !== digest) problems.push(`webhook.digest ${String(claims['webhook.digest'])}, body has ${digest}`);
    } catch (err) {
      problems.push(`token: ${(err as Error).message}`);
    }
    if (spec?.secret) {
      try {
        new Webhook(spec.secret).verify(raw, req.headers as Record<string, string>);
        if (req.headers['webhook-id'] !== req.headers['ce-id']) problems.push('webhook-id is not the ce-id');
      } catch (err) {
        problems.push(`standard webhooks: ${(err as Error).message}`);
      }
    } else if (req.headers['webhook-signature']) problems.push('signed although the subscription has no secret');
    const received: Received = {
      sink: name,
      ceId: event?.id ?? String(req.headers['ce-id'] ?? ''),
      type: event?.type ?? '',
      subject: event?.subject ?? '',
      source: event?.source ?? '',
      time: event?.time ?? '',
      extensions: event
        ? Object.fromEntries(
            Object.entries(event).filter(([k]) => !['id', 'type', 'subject', 'source', 'time', 'data', 'specversion', 'datacontenttype'].includes(k)),
          )
        : {},
      data: (event?.data ?? {}) as Received['data'],
      headers: req.headers,
      claims,
      status: 0,
      at: Date.now(),
      problems,
    };
    const n = this.received.filter((r) => r.sink === name && r.ceId === received.ceId).length + 1;
    const answer = spec?.answer?.(received, n) ?? { status: 200 };
    received.status = answer.status;
    this.received.push(received);
    if (answer.delayMs) await sleep(answer.delayMs);
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.headers ?? {});
    res.end();
  }
}
