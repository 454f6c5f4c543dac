// Requests answered since the last batch: counted in the metrics and written
// to the access log together, at most FLUSH_MS after the first of them (or
// once FLUSH_REQUESTS wait, before every scrape of /metrics, and at exit). A
// request only queues what it measured. Counting it and making its line as
// each request ended cost several times more in a running server than the
// same code in a loop (its code and data had left the CPU's caches between
// two requests; docs/performance.md); done for many requests in a row they
// stay warm. A kill -9 loses at most the last FLUSH_MS of lines and counts.
import { metrics, type Metrics } from '../core/metrics.js';

export type ListenerName = 'api' | 'registry';

export interface FinishedRequest {
  /** When the answer ended, ms since the epoch (the line's `time`). */
  time: number;
  listener: ListenerName;
  method: string;
  route: string;
  status: number;
  seconds: number;
  /** Bytes written to the client (HTTP/1: status line, headers and body; HTTP/2: the body's Content-Length). */
  sent?: number;
  /** Bytes read from the client (HTTP/1 only). */
  received?: number;
  caller?: string;
  requestId: string;
}

/** Longest a finished request waits to be counted and logged, and the most that wait. */
const FLUSH_MS = 20;
const FLUSH_REQUESTS = 512;

/** Where finished requests go: the metrics (when on) and `writeLines` (when the access log is on); undefined when neither is. */
export function finishedRequests(writeLines?: (batch: readonly FinishedRequest[]) => void): ((f: FinishedRequest) => void) | undefined {
  const m = metrics();
  if (!m && !writeLines) return undefined;
  let pending: FinishedRequest[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    if (m) for (const f of batch) count(m, f);
    writeLines?.(batch);
  };
  m?.beforeScrape(flush);
  process.on('exit', flush);
  return (f) => {
    if (pending.push(f) >= FLUSH_REQUESTS) flush();
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  };
}

// The routes that exchange a credential for a token, by listener, by the name their counter uses.
const TOKEN_ROUTES: Readonly<Record<ListenerName, ReadonlyMap<string, string>>> = {
  api: new Map([
    ['/sts/exchange', 'sts_exchange'],
    ['/sts/exchange_refresh_token', 'sts_refresh'],
    ['/sts/login', 'sts_login'],
  ]),
  registry: new Map([['/token', 'registry_token']]),
};

function count(m: Metrics, f: FinishedRequest): void {
  m.httpDuration.observe({ listener: f.listener, method: f.method, route: f.route, status: String(f.status) }, f.seconds);
  const endpoint = TOKEN_ROUTES[f.listener].get(f.route);
  if (endpoint) m.tokenExchanges.inc({ endpoint, outcome: f.status < 400 ? 'issued' : f.status < 500 ? 'refused' : 'error' });
  if (f.listener === 'registry') {
    if (f.sent) m.registrySent.inc(f.sent);
    if (f.received) m.registryReceived.inc(f.received);
  }
}
