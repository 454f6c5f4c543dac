// berth iam role-bindings: grant a role to an identity on a group, show, change
// the role of, list and revoke such grants. Groups, identities and roles may
// be named by uid or by name ("viewer").
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { IDENTITY, resolveName, resolveOptional, resolveParent, ROLE } from './name-resolution.js';
import { printDeleted, printList, printOne, type Column } from './output.js';

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
  berth iam role-bindings create --identity <identity> --role viewer
  berth iam role-bindings get <uid>
  berth iam role-bindings update <uid> --role editor
  berth iam role-bindings delete <uid>`,
    );

  apiCommand(bindings, 'list', 'List role bindings on a group (all pages)')
    .option('--parent <group>', 'group, uid or name (default: the organization)')
    .option('--identity <identity>', 'only bindings of this identity, uid or name')
    .option('--role <role>', 'only bindings of this role, uid or name')
    .addHelpText('after', '\nExamples:\n  berth iam role-bindings list\n  berth iam role-bindings list --identity <identity> -o id')
    .action(async (o: ApiOptions & { parent?: string; identity?: string; role?: string }) => {
      const conn = await connect(o);
      const items = await listAll<RoleBinding>(conn.client, 'iam/v2/roleBindings', 'roleBindings', {
        'uidp.children_of': await resolveParent(conn, o.parent),
        identity: await resolveOptional(conn.client, IDENTITY, o.identity),
        role: await resolveOptional(conn.client, ROLE, o.role),
      });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(bindings, 'get <uid>', 'Show one role binding')
    .addHelpText('after', '\nExample:\n  berth iam role-bindings get <uid> -o json')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printOne(await conn.client.call<RoleBinding>('GET', `iam/v2/roleBindings/${uidPath(uid)}`), o.output, COLUMNS);
    });

  apiCommand(bindings, 'create', 'Grant a role to an identity on a group')
    .option('--parent <group>', 'group the role applies to, uid or name (default: the organization)')
    .requiredOption('--identity <identity>', 'identity, uid or name')
    .requiredOption('--role <role>', 'role, uid or name such as viewer, editor, owner')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam role-bindings create --identity github-ci --role viewer\n  berth iam role-bindings create --parent team-a --identity <identity uid> --role <role uid>',
    )
    .action(async (o: ApiOptions & { parent?: string; identity: string; role: string }) => {
      const conn = await connect(o);
      const parent = await resolveParent(conn, o.parent);
      const body = { identityUid: await resolveName(conn.client, IDENTITY, o.identity), roleUid: await resolveName(conn.client, ROLE, o.role) };
      printOne(await conn.client.call<RoleBinding>('POST', `iam/v2/roleBindings/${uidPath(parent)}`, { body }), o.output, COLUMNS);
    });

  apiCommand(bindings, 'update <uid>', 'Give a role binding another role (the identity and group stay)')
    .requiredOption('--role <role>', 'the new role, uid or name')
    .addHelpText('after', '\nExample:\n  berth iam role-bindings update <uid> --role editor')
    .action(async (uid: string, o: ApiOptions & { role: string }) => {
      const conn = await connect(o);
      const body = { roleUid: await resolveName(conn.client, ROLE, o.role) };
      const binding = await conn.client.call<RoleBinding>('PATCH', `iam/v2/roleBindings/${uidPath(uid)}`, { query: { updateMask: 'role_uid' }, body });
      printOne(binding, o.output, COLUMNS);
    });

  apiCommand(bindings, 'delete <uid>', 'Revoke a role binding')
    .addHelpText('after', '\nExample:\n  berth iam role-bindings list --identity <identity> -o id | xargs -n1 berth iam role-bindings delete')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      const body = await conn.client.call('DELETE', `iam/v2/roleBindings/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
