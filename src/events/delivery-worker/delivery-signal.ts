// An in-process nudge for the delivery worker: the outbox rings it when a
// transaction that wrote an event commits, and a redelivery when it resets a
// row, so the worker runs a pass at once instead of at its next poll. Only
// this process hears it; other instances find the rows by polling.
type Listener = () => void;

const listeners = new Set<Listener>();

/** Calls `listener` on every ring until the returned function is called. */
export function onDeliveryWork(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's delivery workers that committed rows await them. */
export function ringDeliveryWorkers(): void {
  for (const l of listeners) l();
}
