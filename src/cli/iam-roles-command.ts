// berth iam roles: list, create, update and delete roles (named sets of
// capabilities; the built-in ones such as "viewer" cannot be changed).
import type { Command } from 'commander';
import { apiCommand, connect, patchOf, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { GROUP, resolveName, resolveOptional, resolveParent, ROLE } from './name-resolution.js';
import { BASIC_COLUMNS, printDeleted, printList, printOne } from './output.js';

interface Role {
  uid: string;
  name: string;
  description?: string;
  capabilities?: string[];
  createTime?: string;
}

/** --capabilities as enum names; the proto's list is loaded only when a command is given capabilities. */
async function capabilitiesOf(value: string): Promise<string[]> {
  const { capabilitiesArgument } = await import('./capability-arguments.js');
  return capabilitiesArgument(value);
}

export function iamRolesCommand(iam: Command): void {
  const roles = iam
    .command('roles')
    .description('Manage roles: named sets of capabilities that role bindings grant')
    .addHelpText(
      'after',
      `
Examples:
  berth iam roles list
  berth iam roles list --name viewer
  berth iam roles get viewer
  berth iam roles create repo-reader --capabilities repo.list,tag.list
  berth iam roles update <uid> --capabilities CAP_REPO_LIST
  berth iam roles delete <uid>

Capabilities go by enum name (CAP_REPO_LIST) or friendly name (repo.list):
see \`berth iam capabilities list\`.`,
    );

  apiCommand(roles, 'list', 'List roles (all pages); without --parent also the built-in ones')
    .option('--parent <group>', 'only roles defined directly in this group, uid or name')
    .option('--name <name>', 'only roles with this exact name')
    .addHelpText('after', '\nExamples:\n  berth iam roles list\n  berth iam roles list --name viewer -o id')
    .action(async (o: ApiOptions & { parent?: string; name?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Role>(conn.client, 'iam/v2/roles', 'roles', {
        'uidp.children_of': await resolveOptional(conn.client, GROUP, o.parent),
        name: o.name,
      });
      printList(items, o.output, BASIC_COLUMNS);
    });

  apiCommand(roles, 'get <role>', 'Show one role (uid or name)')
    .addHelpText('after', '\nExamples:\n  berth iam roles get viewer -o json\n  berth iam roles get <uid>')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, ROLE, ref);
      printOne(await conn.client.call<Role>('GET', `iam/v2/roles/${uidPath(uid)}`), o.output, BASIC_COLUMNS);
    });

  apiCommand(roles, 'create <name>', 'Create a role')
    .option('--parent <group>', 'group to define it in, uid or name (default: the organization)')
    .requiredOption('--capabilities <caps>', 'comma-separated capabilities, e.g. repo.list,CAP_TAG_LIST')
    .option('--description <text>', 'description')
    .addHelpText('after', '\nExample:\n  berth iam roles create repo-reader --capabilities repo.list,tag.list --description "read the registry"')
    .action(async (name: string, o: ApiOptions & { parent?: string; capabilities: string; description?: string }) => {
      const capabilities = await capabilitiesOf(o.capabilities);
      const conn = await connect(o);
      const role = await conn.client.call<Role>('POST', `iam/v2/roles/${uidPath(await resolveParent(conn, o.parent))}`, {
        body: { name, description: o.description, capabilities },
      });
      printOne(role, o.output, BASIC_COLUMNS);
    });

  apiCommand(roles, 'update <role>', 'Change a role, by uid or name (only the fields given; --capabilities replaces the set)')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--capabilities <caps>', 'new comma-separated capability set')
    .addHelpText('after', '\nExample:\n  berth iam roles update <uid> --capabilities CAP_REPO_LIST,CAP_TAG_LIST,CAP_REPO_CREATE')
    .action(async (ref: string, o: ApiOptions & { name?: string; description?: string; capabilities?: string }) => {
      const capabilities = o.capabilities === undefined ? undefined : await capabilitiesOf(o.capabilities);
      const { body, updateMask } = patchOf<string | string[]>({ name: o.name, description: o.description, capabilities });
      const conn = await connect(o);
      const uid = await resolveName(conn.client, ROLE, ref);
      const role = await conn.client.call<Role>('PATCH', `iam/v2/roles/${uidPath(uid)}`, { query: { updateMask }, body });
      printOne(role, o.output, BASIC_COLUMNS);
    });

  apiCommand(roles, 'delete <role>', 'Delete a role, by uid or name')
    .addHelpText('after', '\nExample:\n  berth iam roles delete <uid>')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, ROLE, ref);
      const body = await conn.client.call('DELETE', `iam/v2/roles/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
