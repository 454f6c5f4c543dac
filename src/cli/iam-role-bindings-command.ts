// berth iam role-bindings: grant a role to an identity on a group, list and
// revoke such grants. A role may be named by uid or by name ("viewer").
import type { Command } from 'commander';
import { apiCommand, connect, parentOrOrg, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { printDeleted, printList, printOne, type Column } from './output.js';
import { resolveRole } from './resolve-names.js';

interface Ref {
  uid?: string;
  name?: string;
}

interface RoleBinding {
  uid: string;
  identity?: Ref;
  group?: Ref;
  role?: Ref;
  createTime?: string;
}

const label = (r: Ref | undefined) => (r?.name ? r.name : r?.uid);

const COLUMNS: readonly Column<RoleBinding>[] = [
  { header: 'UID', value: (b) => b.uid },
  { header: 'IDENTITY', value: (b) => label(b.identity) },
  { header: 'ROLE', value: (b) => label(b.role) },
  { header: 'GROUP', value: (b) => label(b.group) },
];

export function iamRoleBindingsCommand(iam: Command): void {
  const bindings = iam
    .command('role-bindings')
    .description('Manage role bindings: which identity has which role on which group')
    .addHelpText(
      'after',
      `
Examples:
  berth iam role-bindings list
  berth iam role-bindings create --identity <identity uid> --role viewer
  berth iam role-bindings delete <uid>`,
    );

  apiCommand(bindings, 'list', 'List role bindings on a group (all pages)')
    .option('--parent <uid>', 'group (default: the organization)')
    .option('--identity <uid>', 'only bindings of this identity')
    .addHelpText('after', '\nExamples:\n  berth iam role-bindings list\n  berth iam role-bindings list --identity <identity uid> -o id')
    .action(async (o: ApiOptions & { parent?: string; identity?: string }) => {
      const conn = await connect(o);
      const items = await listAll<RoleBinding>(conn.client, 'iam/v2/roleBindings', 'roleBindings', {
        'uidp.children_of': parentOrOrg(conn, o.parent),
        identity: o.identity,
      });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(bindings, 'create', 'Grant a role to an identity on a group')
    .option('--parent <uid>', 'group the role applies to (default: the organization)')
    .requiredOption('--identity <uid>', 'identity uid')
    .requiredOption('--role <role>', 'role uid, or the name of a role such as viewer, editor, owner')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam role-bindings create --identity <identity uid> --role viewer\n  berth iam role-bindings create --parent <group uid> --identity <identity uid> --role <role uid>',
    )
    .action(async (o: ApiOptions & { parent?: string; identity: string; role: string }) => {
      const conn = await connect(o);
      const roleUid = await resolveRole(conn.client, o.role);
      const binding = await conn.client.call<RoleBinding>('POST', `iam/v2/roleBindings/${uidPath(parentOrOrg(conn, o.parent))}`, {
        body: { identityUid: o.identity, roleUid },
      });
      printOne(binding, o.output, COLUMNS);
    });

  apiCommand(bindings, 'delete <uid>', 'Revoke a role binding')
    .addHelpText('after', '\nExample:\n  berth iam role-bindings list --identity <identity uid> -o id | xargs -n1 berth iam role-bindings delete')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      const body = await conn.client.call('DELETE', `iam/v2/roleBindings/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
