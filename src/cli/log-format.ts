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

/** Longest a log line waits to be written, and the most that waits. */
const FLUSH_MS = 20;
const FLUSH_BYTES = 64 * 1024;

/**
 * Stdout for pino's JSON lines, written together: at most every FLUSH_MS, or
 * when FLUSH_BYTES wait, instead of one write() per line (or per turn of the
 * event loop, which under load is still one per request or two): the writes
 * were most of the access log's cost (docs/performance.md). What waits is
 * written on exit; a kill -9 loses at most FLUSH_MS of lines. The batch is
 * handed to a synchronous destination as one string: sonic-boom's flushSync
 * would also fsync stdout after every batch (a disk flush each time when
 * stdout is a file).
 */
export function batchedStdout(): { write(line: string): void; flush(): void } {
  const dest = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending.join('');
    pending = [];
    bytes = 0;
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
      bytes += line.length;
      if (bytes >= FLUSH_BYTES) flush();
      else if (timer === undefined) timer = setTimeout(flush, FLUSH_MS).unref();
    },
    flush,
  };
}
