// --log-format: pino writes JSON lines (the default, for log shippers); `text`
// turns each line into one line for people: time, level, message, then the
// fields as key=value. pino-pretty is not a dependency, and this is all a
// terminal needs.
import { Writable } from 'node:stream';
import pino from 'pino';

export type LogFormat = 'json' | 'text';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const SKIPPED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

export function parseLogFormat(value: string): LogFormat {
  if (value !== 'json' && value !== 'text') throw new Error(`--log-format must be json or text, got ${JSON.stringify(value)}`);
  return value;
}

function show(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** One line of text for one of pino's JSON lines (a line that is not JSON passes through). */
export function textLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof o.time === 'number' ? new Date(o.time).toISOString() : '';
  const fields = Object.entries(o)
    .filter(([k, v]) => !SKIPPED.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${show(v)}`);
  return [time, LEVELS[o.level as number] ?? String(o.level), String(o.msg ?? ''), ...fields].filter((s) => s !== '').join(' ');
}

/** A stream for pino that writes `textLine` of each line to `out`. */
export function textLogStream(out: NodeJS.WritableStream = process.stdout): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const lines = String(chunk)
        .split('\n')
        .filter((l) => l !== '');
      out.write(`${lines.map(textLine).join('\n')}\n`);
      done();
    },
  });
}

/**
 * Stdout for pino's JSON lines, written once per turn of the event loop: the
 * lines of every request answered in one turn go out in one write() instead
 * of one each (the write was most of the access log's cost, docs/performance.md).
 * A line waits at most until the turn ends; what is left is written on exit.
 * The batch is handed to a synchronous destination as one string: sonic-boom's
 * flushSync would also fsync stdout after every batch (a disk flush per turn
 * when stdout is a file).
 */
export function turnBatchedStdout(): { write(line: string): void } {
  const dest = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending.join('');
    pending = [];
    dest.write(batch);
  };
  process.on('exit', () => {
    try {
      flush();
    } catch {
      // stdout is gone: nothing to write to
    }
  });
  return {
    write(line: string) {
      pending.push(line);
      if (pending.length === 1) setImmediate(flush);
    },
  };
}
