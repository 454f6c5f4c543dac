// berth iam groups: list, create, update and delete groups (folders of the
// organization hierarchy that hold repos, identities and role bindings).
import type { Command } from 'commander';
import { apiCommand, connect, patchOf, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { GROUP, resolveName, resolveParent } from './name-resolution.js';
import { BASIC_COLUMNS, printDeleted, printList, printOne } from './output.js';

interface Group {
  uid: string;
  name: string;
  description?: string;
  createTime?: string;
}

export function iamGroupsCommand(iam: Command): void {
  const groups = iam
    .command('groups')
    .description('Manage groups: the organization and its subgroups')
    .addHelpText(
      'after',
      `
Examples:
  berth iam groups list
  berth iam groups get team-a
  berth iam groups create team-a --description "Team A"
  berth iam groups update <uid> --name team-b
  berth iam groups delete <uid>`,
    );

  apiCommand(groups, 'list', 'List groups directly below a group (all pages)')
    .option('--parent <group>', 'list the children of this group, uid or name (default: the organization)')
    .option('--name <name>', 'only groups with this exact name')
    .addHelpText('after', '\nExamples:\n  berth iam groups list\n  berth iam groups list --parent <group uid> -o id')
    .action(async (o: ApiOptions & { parent?: string; name?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Group>(conn.client, 'iam/v2/groups', 'groups', {
        'uidp.children_of': await resolveParent(conn, o.parent),
        name: o.name,
      });
      printList(items, o.output, BASIC_COLUMNS);
    });

  apiCommand(groups, 'get <group>', 'Show one group (uid or name)')
    .addHelpText('after', '\nExamples:\n  berth iam groups get team-a -o json\n  berth iam groups get <uid>')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, GROUP, ref);
      printOne(await conn.client.call<Group>('GET', `iam/v2/groups/${uidPath(uid)}`), o.output, BASIC_COLUMNS);
    });

  apiCommand(groups, 'create <name>', 'Create a group')
    .option('--parent <group>', 'parent group, uid or name (default: the organization)')
    .option('--description <text>', 'description')
    .option('--root', 'create a new organization instead (you must own one already)')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam groups create team-a\n  GROUP=$(berth iam groups create ci --description "CI robots" -o id)\n  berth iam groups create other.example --root',
    )
    .action(async (name: string, o: ApiOptions & { parent?: string; description?: string; root?: boolean }) => {
      if (o.root && o.parent) throw new Error('--root and --parent exclude each other');
      const conn = await connect(o);
      const path = o.root ? 'iam/v2/groups' : `iam/v2/groups/${uidPath(await resolveParent(conn, o.parent))}`;
      const group = await conn.client.call<Group>('POST', path, {
        body: { name, description: o.description },
      });
      printOne(group, o.output, BASIC_COLUMNS);
    });

  apiCommand(groups, 'update <group>', 'Change a group, by uid or name (only the fields given)')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .addHelpText('after', '\nExample:\n  berth iam groups update <uid> --name team-b --description "Team B"')
    .action(async (ref: string, o: ApiOptions & { name?: string; description?: string }) => {
      const { body, updateMask } = patchOf({ name: o.name, description: o.description });
      const conn = await connect(o);
      const uid = await resolveName(conn.client, GROUP, ref);
      const group = await conn.client.call<Group>('PATCH', `iam/v2/groups/${uidPath(uid)}`, { query: { updateMask }, body });
      printOne(group, o.output, BASIC_COLUMNS);
    });

  apiCommand(groups, 'delete <group>', 'Delete an empty group, by uid or name')
    .addHelpText('after', '\nExample:\n  berth iam groups delete <uid>\n\nA group that still holds resources is not deleted (RESOURCE_NOT_EMPTY).')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, GROUP, ref);
      const body = await conn.client.call('DELETE', `iam/v2/groups/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
