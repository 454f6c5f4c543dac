// berth events deliveries: a subscription's delivery log (newest event
// first: status, attempts, the sink's last answer, when the next attempt is
// due) and redelivery of one delivery, with the same ce-id.
import { Option, type Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { formatTable, type Column, type OutputFormat } from './output.js';

interface Delivery {
  id?: string;
  subscription?: string;
  eventId?: string;
  eventType?: string;
  eventSubject?: string;
  status?: string;
  attempts?: number;
  lastStatusCode?: number;
  lastError?: string;
  nextAttemptTime?: string;
  createTime?: string;
  deliveredTime?: string;
}

const COLUMNS: readonly Column<Delivery>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'ATTEMPTS', value: (d) => String(d.attempts ?? 0) },
  { header: 'CODE', value: (d) => (d.lastStatusCode ? String(d.lastStatusCode) : '') },
  { header: 'EVENT TYPE', value: (d) => d.eventType },
  { header: 'EVENT ID', value: (d) => d.eventId },
  { header: 'NEXT ATTEMPT', value: (d) => d.nextAttemptTime },
  { header: 'DELIVERED', value: (d) => d.deliveredTime },
  { header: 'LAST ERROR', value: (d) => d.lastError },
];

/** Deliveries have ids, not uids: -o id prints those. */
function printDeliveries(items: readonly Delivery[], format: OutputFormat): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
  else if (format === 'id') process.stdout.write(items.map((d) => `${d.id ?? ''}\n`).join(''));
  else process.stdout.write(formatTable(items, COLUMNS));
}

export function eventsDeliveriesCommand(events: Command): void {
  const deliveries = events
    .command('deliveries')
    .description("A subscription's delivery log, and redelivery")
    .addHelpText(
      'after',
      `
Examples:
  berth events deliveries list <subscription uid>
  berth events deliveries list <subscription uid> --status dead -o id
  berth events deliveries redeliver <subscription uid> <delivery id>`,
    );

  apiCommand(deliveries, 'list <subscription>', "List a subscription's deliveries (all pages, newest event first)")
    .addOption(new Option('--status <status>', 'only deliveries in this status').choices(['pending', 'delivered', 'dead']))
    .addHelpText('after', '\nExamples:\n  berth events deliveries list <subscription uid>\n  berth events deliveries list <subscription uid> --status dead')
    .action(async (subscription: string, o: ApiOptions & { status?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Delivery>(conn.client, `events/v2/subscriptions/${uidPath(subscription)}/deliveries`, 'deliveries', {
        status: o.status?.toUpperCase(),
      });
      printDeliveries(items, o.output);
    });

  apiCommand(deliveries, 'redeliver <subscription> <delivery>', 'Send a delivery again (same ce-id), whatever its status')
    .addHelpText(
      'after',
      '\nExamples:\n  berth events deliveries redeliver <subscription uid> 42\n  berth events deliveries list <subscription uid> --status dead -o id | xargs -n1 berth events deliveries redeliver <subscription uid>',
    )
    .action(async (subscription: string, delivery: string, o: ApiOptions) => {
      const conn = await connect(o);
      const d = await conn.client.call<Delivery>(
        'POST',
        `events/v2/subscriptions/${uidPath(subscription)}/deliveries/${encodeURIComponent(delivery)}:redeliver`,
        {
          body: {},
        },
      );
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
      else printDeliveries([d], o.output);
    });
}
