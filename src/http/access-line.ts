// The access log line of a request, written straight to the logger's
// destination as the line pino itself would write for
// `logger.info({listener, method, …}, 'request')`: same keys, order and base
// fields. Going through pino cost about 20 µs of a GET's 190 (its redaction
// walk and generic serialization, for a line whose keys are fixed and none
// secret; docs/performance.md). The destination is the logger's own, so the
// text format turns the line into text as it does every other line.
import pino, { type Logger } from 'pino';

export interface AccessFields {
  listener: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  bytes?: number;
  caller?: string;
  requestId: string;
}

type Destination = { write(line: string): unknown };

/** A writer of access lines through `logger`'s destination, or undefined when info is not logged. */
export function accessLineWriter(logger: Logger): ((f: AccessFields) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as Destination | undefined;
  const bindings = internals[pino.symbols.chindingsSym];
  if (!stream || typeof stream.write !== 'function' || typeof bindings !== 'string') {
    return (f) => logger.info(f, 'request'); // a logger built otherwise (tests): pino writes it
  }
  const level = logger.levels.values.info;
  return (f) => {
    let line = `{"level":${level},"time":${Date.now()}${bindings},"listener":"${f.listener}","method":"${f.method}","route":${JSON.stringify(f.route)},"status":${f.status},"durationMs":${f.durationMs}`;
    if (f.bytes !== undefined) line += `,"bytes":${f.bytes}`;
    if (f.caller !== undefined) line += `,"caller":${JSON.stringify(f.caller)}`;
    // The id is one of REQUEST_ID's characters or a UUID: nothing to escape; stringified all the same.
    line += `,"requestId":${JSON.stringify(f.requestId)},"msg":"request"}\n`;
    stream.write(line);
  };
}
