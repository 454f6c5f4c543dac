// Every HTTP request Berth makes of its own starts here: the URL is checked
// against the outbound policy (an address in it too, since no lookup runs for
// one), and the socket connects only to addresses pinnedLookup checked.
// Redirects are never followed here; callers that follow one call again.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { bareAddress } from './address-kinds.js';
import { type OutboundPolicy, outboundUrlProblem } from './outbound-policy.js';
import { OutboundRefused, pinnedLookup } from './pinned-lookup.js';

export interface OutboundOptions {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  policy: OutboundPolicy;
  /** Names the URL in a refusal ("sink", "issuer"). */
  what: string;
  /** A keep-alive agent of the caller's (of the URL's protocol); none: a connection of its own. */
  agent?: http.Agent;
  signal?: AbortSignal;
}

/** The request, not yet sent (write the body and end it); throws OutboundRefused when the URL is refused. */
export function outboundRequest(url: URL, opts: OutboundOptions): http.ClientRequest {
  const problem = outboundUrlProblem(url, opts.policy, opts.what);
  if (problem) throw new OutboundRefused(problem);
  const host = bareAddress(url.hostname);
  // outboundUrlProblem checked an address written in the URL (no lookup runs for one), and that
  // plain http goes to a loopback host; the lookup checks what a name resolves to.
  const plain = url.protocol === 'http:';
  return (plain ? http : https).request({
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: opts.method,
    headers: opts.headers,
    agent: opts.agent ?? false,
    lookup: pinnedLookup(opts.policy, plain),
    servername: isIP(host) === 0 ? host : undefined,
    signal: opts.signal,
  });
}
