// The access log lines of a batch of finished requests (finished-requests.ts),
// written straight to the logger's destination as the lines pino itself would
// write for `logger.info({listener, method, …}, 'request')`: same keys, order
// and base fields. Going through pino cost about 20 µs of a GET's 190 (its
// redaction walk and generic serialization, for a line whose keys are fixed
// and none secret; docs/performance.md). The destination is the logger's own,
// so the text format turns the lines into text as it does every other line.
import pino, { type Logger } from 'pino';
import type { FinishedRequest } from './finished-requests.js';

type Destination = { write(line: string): unknown; flush?(): void };

/** A writer of a batch's access lines through `logger`'s destination, or undefined when info is not logged. */
export function accessLineWriter(logger: Logger): ((batch: readonly FinishedRequest[]) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as Destination | undefined;
  const bindings = internals[pino.symbols.chindingsSym];
  if (!stream || typeof stream.write !== 'function' || typeof bindings !== 'string') {
    // A logger built otherwise (tests): pino writes each line.
    return (batch) => {
      for (const f of batch) logger.info(fieldsOf(f), 'request');
    };
  }
  const head = `{"level":${logger.levels.values.info},"time":`;
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
  return (batch) => {
    const lines = new Array<string>(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const f = batch[i];
      let line = `${head}${f.time}${bindings},"listener":"${f.listener}","method":"${f.method}","route":${quote(f.route)},"status":${f.status},"durationMs":${durationMs(f.seconds)}`;
      if (f.sent !== undefined) line += `,"bytes":${f.sent}`;
      if (f.caller !== undefined) line += `,"caller":${JSON.stringify(f.caller)}`;
      // The id is a UUID or of REQUEST_ID's characters (request-observer.ts), none of which JSON escapes.
      lines[i] = `${line},"requestId":"${f.requestId}","msg":"request"}\n`;
    }
    stream.write(lines.join('')); // one flat string: a rope of lines cost a second pass to flatten
    stream.flush?.(); // these lines have waited already: the destination's own batch need not hold them again
  };
}

function durationMs(seconds: number): number {
  return Math.round(seconds * 1e6) / 1000;
}

function fieldsOf(f: FinishedRequest) {
  return {
    listener: f.listener,
    method: f.method,
    route: f.route,
    status: f.status,
    durationMs: durationMs(f.seconds),
    bytes: f.sent,
    caller: f.caller,
    requestId: f.requestId,
  };
}
