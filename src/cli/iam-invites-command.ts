// berth iam invites: codes that let someone join a group with a role
// (`berth auth login --invite-code CODE`). The code is shown once, by create.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { resolveName, resolveParent, ROLE } from './name-resolution.js';
import { listAll } from './list-all.js';
import { printDeleted, printList, printOne, type Column } from './output.js';

interface Invite {
  uid: string;
  role?: { uid?: string; name?: string };
  email?: string;
  expirationTime?: string;
  singleUse?: boolean;
  code?: string;
  keyId?: string;
}

const COLUMNS: readonly Column<Invite>[] = [
  { header: 'UID', value: (i) => i.uid },
  { header: 'ROLE', value: (i) => i.role?.name || i.role?.uid },
  { header: 'EXPIRES', value: (i) => i.expirationTime },
  { header: 'SINGLE-USE', value: (i) => (i.singleUse ? 'yes' : 'no') },
  { header: 'EMAIL', value: (i) => i.email },
  { header: 'KEY ID', value: (i) => i.keyId },
];
const WITH_CODE: readonly Column<Invite>[] = [...COLUMNS, { header: 'CODE', value: (i) => i.code }];

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "30m", "12h", "7d" or a number of seconds → a protobuf Duration ("43200s"). */
export function parseTtl(value: string): string {
  const m = /^(\d{1,7})([smhd]?)$/.exec(value.trim());
  if (!m || Number(m[1]) === 0) throw new Error(`--ttl must be a duration such as 30m, 12h or 7d, got ${JSON.stringify(value)}`);
  return `${Number(m[1]) * UNIT_SECONDS[m[2] || 's']}s`;
}

export function iamInvitesCommand(iam: Command): void {
  const invites = iam
    .command('invites')
    .description('Manage invite codes that let an identity join a group with a role')
    .addHelpText(
      'after',
      `
Examples:
  berth iam invites create --role viewer --ttl 2d
  berth iam invites create --parent team-a --role editor --email kim@example.com --single-use
  berth iam invites list
  berth iam invites delete <uid>

The invited person runs: berth auth login --credentials <their file> --invite-code <code>`,
    );

  apiCommand(invites, 'list', 'List the invites of a group (all pages, newest first)')
    .option('--parent <group>', 'group uid or name (default: the organization)')
    .addHelpText('after', '\nExamples:\n  berth iam invites list\n  berth iam invites list --parent team-a -o id')
    .action(async (o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Invite>(conn.client, 'iam/v2/groupInvites', 'groupInvites', { 'uidp.children_of': await resolveParent(conn, o.parent) });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(invites, 'get <uid>', 'Show an invite (never its code)')
    .addHelpText('after', '\nExample:\n  berth iam invites get <uid> -o json')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printOne(await conn.client.call<Invite>('GET', `iam/v2/groupInvites/${uidPath(uid)}`), o.output, COLUMNS);
    });

  apiCommand(invites, 'create', 'Create an invite and print its code (shown this once)')
    .option('--parent <group>', 'group to join, uid or name (default: the organization)')
    .requiredOption('--role <role>', 'role uid or name, e.g. viewer, editor, owner')
    .option('--ttl <duration>', 'how long the code is valid: 30m, 12h, 7d (default and most: 7d)', parseTtl)
    .option('--email <address>', 'only an identity with this verified email may accept')
    .option('--single-use', 'the code works once')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam invites create --role viewer --ttl 2d\n  CODE=$(berth iam invites create --role editor --single-use -o json | jq -r .code)',
    )
    .action(async (o: ApiOptions & { parent?: string; role: string; ttl?: string; email?: string; singleUse?: boolean }) => {
      const conn = await connect(o);
      const [parent, roleUid] = await Promise.all([resolveParent(conn, o.parent), resolveName(conn.client, ROLE, o.role)]);
      const invite = await conn.client.call<Invite>('POST', `iam/v2/groupInvites/${uidPath(parent)}`, {
        body: { roleUid, ttl: o.ttl, email: o.email, singleUse: o.singleUse === true },
      });
      printOne(invite, o.output, WITH_CODE);
      // -o id prints the uid; the code would otherwise be lost.
      if (o.output === 'id') process.stderr.write(`invite code (shown once): ${invite.code}\n`);
    });

  apiCommand(invites, 'delete <uid>', 'Delete an invite: its code stops working')
    .addHelpText('after', '\nExample:\n  berth iam invites list -o id | xargs -n1 berth iam invites delete')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printDeleted(uid, await conn.client.call('DELETE', `iam/v2/groupInvites/${uidPath(uid)}`), o.output);
    });
}
