// Parses import files on worker threads while the importer's thread writes
// the previous batch: node:sqlite runs statements synchronously, so without
// this a file's parse (a good part of an import's time) and the database writes
// take turns on one core. Only plain data crosses: the bytes out, the
// advisories back. Without a spare core (or with size 0) files are parsed
// in this thread, by the same functions.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FormatName } from './format-names.js';
import { type ParseOptions, PARSERS } from './format-parsers.js';
import { ImportError, type NormalizedAdvisory } from './normalized-advisory.js';

export interface ParseRequest {
  id: number;
  format: FormatName;
  file: string;
  bytes: Uint8Array;
  opts: ParseOptions;
}

export type ParseReply =
  | { id: number; advisories: NormalizedAdvisory[] }
  | { id: number; refused: { file: string; line: number; message: string } }
  | { id: number; failed: string };

/** Threads at most: beyond a few, the writer is the bottleneck and each thread only adds memory. */
const MAX_THREADS = 3;

interface Pending {
  resolve: (advisories: NormalizedAdvisory[]) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

export class ParsePool {
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private closed = false;
  /** Why a thread died: every later parse fails with it (the pool does not limp on with fewer). */
  private broken?: Error;

  /** `size` threads (started at the first parse: a re-import that skips every file needs none); default: one per core but the importer's own, at most MAX_THREADS. */
  constructor(readonly size = Math.max(0, Math.min(MAX_THREADS, availableParallelism() - 1))) {}

  parse(format: FormatName, file: string, bytes: Uint8Array, opts: ParseOptions): Promise<NormalizedAdvisory[]> {
    if (this.closed) return Promise.reject(new Error('parse pool closed'));
    if (this.broken) return Promise.reject(this.broken);
    if (this.size === 0) {
      try {
        return Promise.resolve(PARSERS[format](file, bytes, opts));
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    while (this.threads.length < this.size) this.threads.push(this.start());
    // The thread with the least outstanding work; a view into a larger buffer (a zip entry) is copied
    // out first, since cloning a view would clone the whole buffer behind it.
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, format, file, bytes: own, opts } satisfies ParseRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
    for (const t of this.threads) this.failAll(t, new Error('parse pool closed'));
  }

  private start(): Thread {
    // Not unref'd: a reply on its way must keep the process alive (its message listener would anyway); close() ends it.
    const worker = new Worker(new URL('./parse-worker.js', import.meta.url));
    const thread: Thread = { worker, pending: new Map() };
    worker.on('message', (reply: ParseReply) => {
      const p = thread.pending.get(reply.id);
      if (!p) return;
      thread.pending.delete(reply.id);
      if ('advisories' in reply) p.resolve(reply.advisories);
      else if ('refused' in reply) p.reject(new ImportError(reply.refused.file, reply.refused.line, reply.refused.message));
      else p.reject(new Error(`parsing failed: ${reply.failed}`));
    });
    // A thread that dies (out of memory) fails what it held; the import reports that instead of waiting for ever.
    worker.on('error', (err) => {
      this.broken ??= err;
      this.failAll(thread, err);
    });
    worker.on('exit', (code) => {
      if (!this.closed) this.broken ??= new Error(`parse thread exited (code ${code})`);
      this.failAll(thread, this.broken ?? new Error('parse pool closed'));
    });
    return thread;
  }

  private failAll(thread: Thread, err: Error): void {
    for (const p of thread.pending.values()) p.reject(err);
    thread.pending.clear();
  }
}
