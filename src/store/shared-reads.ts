// One read shared by the callers that want it at the same time, without
// handing anyone a result older than their call: a caller joins a read still
// to be started, never one already started (its snapshot may predate the
// caller), and one read runs at a time. A read starts only once the event
// loop's current turn is over (setImmediate), so every request that turn
// brought shares it; callers that arrive while it runs share the one after
// it. Alone, a caller reads within its own turn. Used for PostgreSQL's
// per-request table versions (docs/performance.md).
export class SharedReads<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  read(run: () => Promise<T>): Promise<T> {
    if (this.next) return this.next;
    const start = () => {
      this.next = undefined; // from here on, callers wait for this read and then read again
      return this.start(run);
    };
    this.next = this.running ? this.running.then(start, start) : new Promise<void>((resolve) => setImmediate(resolve)).then(start);
    return this.next;
  }

  private start(run: () => Promise<T>): Promise<T> {
    const p = run();
    this.running = p;
    const done = () => {
      if (this.running === p) this.running = undefined;
    };
    p.then(done, done);
    return p;
  }
}
