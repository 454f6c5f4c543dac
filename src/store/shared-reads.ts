// One read shared by the callers that want it at the same time, without
// handing anyone a result older than their call: a caller joins the next read
// still to be started, never one already started (its snapshot may predate
// the caller), and one read runs at a time. Under load one read then serves
// every caller that arrived while the read before it ran; alone, a caller
// reads at once. Used for PostgreSQL's per-request table versions
// (docs/performance.md).
export class SharedReads<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  read(run: () => Promise<T>): Promise<T> {
    if (this.next) return this.next;
    if (!this.running) return this.start(run);
    const after = () => {
      this.next = undefined; // from here on, callers wait for this read and then read again
      return this.start(run);
    };
    this.next = this.running.then(after, after);
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
