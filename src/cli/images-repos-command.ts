// berth images repos: list, create, update and delete registry repositories.
import type { Command } from 'commander';
import { apiCommand, connect, parentOrOrg, patchOf, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { BASIC_COLUMNS, printDeleted, printList, printOne } from './output.js';

interface Repo {
  uid: string;
  name: string;
  description?: string;
  createTime?: string;
  updateTime?: string;
}

export function imagesReposCommand(images: Command): void {
  const repos = images
    .command('repos')
    .description('Manage registry repositories')
    .addHelpText(
      'after',
      `
Examples:
  berth images repos list
  berth images repos create nginx --description "web server"
  berth images repos update <uid> --description "changed"
  berth images repos delete <uid>`,
    );

  apiCommand(repos, 'list', 'List repositories (all pages)')
    .option('--parent <uid>', 'only repositories directly in this group (default: the organization)')
    .option('--name <name>', 'only the repository with this exact name')
    .addHelpText(
      'after',
      '\nExamples:\n  berth images repos list\n  berth images repos list --name nginx -o id\n  berth images repos list -o json | jq .[].name',
    )
    .action(async (o: ApiOptions & { parent?: string; name?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Repo>(conn.client, 'registry/v2/repos', 'repos', {
        'uidp.children_of': parentOrOrg(conn, o.parent),
        name: o.name,
      });
      printList(items, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'create <name>', 'Create a repository')
    .option('--parent <uid>', 'group to create it in (default: the organization)')
    .option('--description <text>', 'description')
    .addHelpText('after', '\nExamples:\n  berth images repos create nginx\n  REPO=$(berth images repos create app --description "our app" -o id)')
    .action(async (name: string, o: ApiOptions & { parent?: string; description?: string }) => {
      const conn = await connect(o);
      const repo = await conn.client.call<Repo>('POST', `registry/v2/repos/${uidPath(parentOrOrg(conn, o.parent))}`, {
        body: { name, description: o.description },
      });
      printOne(repo, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'update <uid>', 'Change a repository (only the fields given)')
    .option('--description <text>', 'new description')
    .addHelpText('after', '\nExample:\n  berth images repos update <uid> --description "web server, patched"')
    .action(async (uid: string, o: ApiOptions & { description?: string }) => {
      const { body, updateMask } = patchOf({ description: o.description });
      const conn = await connect(o);
      const repo = await conn.client.call<Repo>('PATCH', `registry/v2/repos/${uidPath(uid)}`, { query: { updateMask }, body });
      printOne(repo, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'delete <uid>', 'Delete a repository')
    .addHelpText('after', '\nExample:\n  berth images repos list --name nginx -o id | xargs -n1 berth images repos delete')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      const body = await conn.client.call('DELETE', `registry/v2/repos/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
