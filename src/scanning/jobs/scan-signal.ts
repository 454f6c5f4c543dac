// An in-process nudge for the scan worker: an enqueue rings it once its
// transaction commits, so a push is scanned at once instead of at the next
// poll. Other instances find the rows by polling.
type Listener = () => void;

const listeners = new Set<Listener>();

/** Calls `listener` on every ring until the returned function is called. */
export function onScanWork(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function ringScanWorkers(): void {
  for (const l of listeners) l();
}
