// The work queues as metrics gauges, read from the database at each scrape:
// scan jobs and event deliveries by state. Shared by all instances on one
// database, so every instance reports the same figures.
import { metrics } from '../core/metrics.js';
import { deliveriesByState } from '../events/delivery-worker/delivery-queue.js';
import { scanJobsByState } from '../scanning/jobs/job-queue.js';
import type { Store } from '../store/store.js';

export function publishQueueGauges(store: Store, scanning: boolean): void {
  const m = metrics();
  if (!m) return;
  const asSamples = (rows: Array<{ state: string; count: number }>) => rows.map((r) => ({ labels: { state: r.state }, value: r.count }));
  m.gauge('berth_event_deliveries', 'Event deliveries by state (pending, delivered, dead), all instances', ['state'], async () =>
    asSamples(await deliveriesByState(store.db)),
  );
  if (scanning) {
    m.gauge('berth_scan_jobs', 'Scan jobs by state (pending, running, done, failed), all instances', ['state'], async () =>
      asSamples(await scanJobsByState(store.db)),
    );
  }
}
