// The access log line of a request, written straight to the logger's
// destination as the line pino itself would write for
// `logger.info({listener, method, …}, 'request')`: same keys, order and base
// fields. Going through pino cost about 20 µs of a GET's 190 (its redaction
// walk and generic serialization, for a line whose keys are fixed and none
// secret; docs/performance.md). A request only queues its fields; the lines
// are made and written together at most every FLUSH_MS (or FLUSH_LINES
// lines, or at exit), which costs a request a fraction of making its line
// alone (docs/performance.md). The destination is the logger's own, so the
// text format turns the line into text as it does every other line.
import pino, { type Logger } from 'pino';

export interface AccessFields {
  /** When the answer ended, ms since the epoch (the line's `time`). */
  time: number;
  listener: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  bytes?: number;
  caller?: string;
  requestId: string;
}

type Destination = { write(line: string): unknown; flush?(): void };

/** Longest a request's line waits to be made and written, and the most lines that wait. */
const FLUSH_MS = 20;
const FLUSH_LINES = 512;

/** A writer of access lines through `logger`'s destination, or undefined when info is not logged. */
export function accessLineWriter(logger: Logger): ((f: AccessFields) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as Destination | undefined;
  const bindings = internals[pino.symbols.chindingsSym];
  if (!stream || typeof stream.write !== 'function' || typeof bindings !== 'string') {
    return ({ time: _time, ...f }) => logger.info(f, 'request'); // a logger built otherwise (tests): pino writes it
  }
  const level = logger.levels.values.info;
  // Route templates are a fixed set (route tables, method paths): each is quoted once.
  const quoted = new Map<string, string>();
  const quote = (route: string) => {
    let q = quoted.get(route);
    if (q === undefined) {
      q = JSON.stringify(route);
      if (quoted.size < 10_000) quoted.set(route, q);
    }
    return q;
  };
  const lineOf = (f: AccessFields) => {
    let line = `{"level":${level},"time":${f.time}${bindings},"listener":"${f.listener}","method":"${f.method}","route":${quote(f.route)},"status":${f.status},"durationMs":${f.durationMs}`;
    if (f.bytes !== undefined) line += `,"bytes":${f.bytes}`;
    if (f.caller !== undefined) line += `,"caller":${JSON.stringify(f.caller)}`;
    // The id is a UUID or of REQUEST_ID's characters (request-observer.ts), none of which JSON escapes.
    return `${line},"requestId":"${f.requestId}","msg":"request"}\n`;
  };
  let pending: AccessFields[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    let lines = '';
    for (const f of batch) lines += lineOf(f);
    stream.write(lines);
    stream.flush?.(); // these lines have waited already: the destination's own batch need not hold them again
  };
  process.on('exit', flush);
  return (f) => {
    if (pending.push(f) >= FLUSH_LINES) flush();
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  };
}
