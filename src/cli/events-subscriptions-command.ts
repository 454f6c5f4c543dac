// berth events subscriptions: create, list, get and delete the webhook
// subscriptions of groups (docs/events.md). The Standard Webhooks signing
// secret is read from a file or stdin, never from the command line, and the
// API never returns it.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { resolveParent } from './name-resolution.js';
import { printDeleted, printList, printOne, type Column } from './output.js';
import { readSecretFile } from './secret-file.js';

interface Subscription {
  uid: string;
  sink: string;
  signed?: boolean;
  createTime?: string;
}

const COLUMNS: readonly Column<Subscription>[] = [
  { header: 'UID', value: (s) => s.uid },
  { header: 'SINK', value: (s) => s.sink },
  { header: 'SIGNED', value: (s) => (s.signed ? 'yes' : 'no') },
  { header: 'CREATED', value: (s) => s.createTime },
];

const SINK_RULES = `
The sink must be an https URL (no user name, password or fragment) whose host
is not a private, loopback, link-local or metadata address; a server run with
--allow-insecure-sinks also accepts private addresses and plain http to
localhost, 127.0.0.0/8 or [::1] (for local testing).

Every delivery carries a token from Berth's issuer (Authorization: Bearer)
whose sub is webhook:<group uid>. With --signing-secret-file it is also
signed the Standard Webhooks way (webhook-id, webhook-timestamp,
webhook-signature); the file holds "whsec_" and the base64 of 24 to 64
random bytes, e.g.:
  echo "whsec_$(openssl rand -base64 32)" > secret.txt`;

export function eventsSubscriptionsCommand(events: Command): void {
  const subs = events
    .command('subscriptions')
    .description('Manage webhook subscriptions: each receives the events of its group and every group below it')
    .addHelpText(
      'after',
      `
Examples:
  berth events subscriptions create https://hooks.example.com/berth --parent team-a
  berth events subscriptions list
  berth events subscriptions get <uid> -o json
  berth events subscriptions delete <uid>`,
    );

  apiCommand(subs, 'create <sink>', 'Subscribe a URL to the events of a group and its descendants')
    .option('--parent <group>', 'the group, uid or name (default: the organization)')
    .option('--signing-secret-file <file>', 'file holding a Standard Webhooks secret ("-": stdin); deliveries are then also signed with it')
    .addHelpText(
      'after',
      `${SINK_RULES}

Examples:
  berth events subscriptions create https://hooks.example.com/berth
  berth events subscriptions create https://hooks.example.com/berth --parent team-a --signing-secret-file secret.txt
  SUB=$(berth events subscriptions create https://hooks.example.com/berth -o id)`,
    )
    .action(async (sink: string, o: ApiOptions & { parent?: string; signingSecretFile?: string }) => {
      const signingSecret = o.signingSecretFile === undefined ? undefined : readSecretFile(o.signingSecretFile, 'the signing secret');
      const conn = await connect(o);
      const parent = await resolveParent(conn, o.parent);
      const created = await conn.client.call<Subscription>('POST', `events/v2/subscriptions/${uidPath(parent)}`, { body: { sink, signingSecret } });
      printOne(created, o.output, COLUMNS);
    });

  apiCommand(subs, 'list', 'List subscriptions (all pages; all you may see unless --parent is given)')
    .option('--parent <group>', 'only the subscriptions made on this group (uid or name)')
    .addHelpText('after', '\nExamples:\n  berth events subscriptions list\n  berth events subscriptions list --parent team-a -o id')
    .action(async (o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const scope = o.parent === undefined ? undefined : await resolveParent(conn, o.parent);
      const items = await listAll<Subscription>(conn.client, 'events/v2/subscriptions', 'subscriptions', { 'uidp.children_of': scope });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(subs, 'get <uid>', 'Show one subscription')
    .addHelpText('after', '\nExample:\n  berth events subscriptions get <uid> -o json')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printOne(await conn.client.call<Subscription>('GET', `events/v2/subscriptions/${uidPath(uid)}`), o.output, COLUMNS);
    });

  apiCommand(subs, 'delete <uid>', 'Delete a subscription (no further deliveries)')
    .addHelpText('after', '\nExample:\n  berth events subscriptions list --parent team-a -o id | xargs -n1 berth events subscriptions delete')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printDeleted(uid, await conn.client.call('DELETE', `events/v2/subscriptions/${uidPath(uid)}`), o.output);
    });
}
