// berth images repos: list, create, update and delete registry repositories.
// A repo is named as the registry names it (ORG/REPO), by name in --parent
// (default: the organization), or by uid (image-names.ts).
import type { Command } from 'commander';
import { apiCommand, connect, patchOf, uidPath, type ApiOptions } from './api-client.js';
import { resolveRepo } from './image-names.js';
import { listAll } from './list-all.js';
import { resolveParent } from './name-resolution.js';
import { BASIC_COLUMNS, printDeleted, printList, printOne } from './output.js';

interface Repo {
  uid: string;
  name: string;
  description?: string;
  createTime?: string;
  updateTime?: string;
}

const REPO_ARGUMENT = 'ORG/REPO, a repo name in --parent (default: the organization), or a uid';

export function imagesReposCommand(images: Command): void {
  const repos = images
    .command('repos')
    .description('Manage registry repositories')
    .addHelpText(
      'after',
      `
A repo is named as the registry names it (ORG/REPO, e.g. example.com/nginx),
by its name in --parent (default: the organization), or by its uid.

Examples:
  berth images repos list
  berth images repos create nginx --description "web server"
  berth images repos update example.com/nginx --description "changed"
  berth images repos delete nginx`,
    );

  apiCommand(repos, 'list', 'List repositories (all pages)')
    .option('--parent <group>', 'only repositories directly in this group, uid or name (default: the organization)')
    .option('--name <name>', 'only the repository with this exact name')
    .addHelpText(
      'after',
      '\nExamples:\n  berth images repos list\n  berth images repos list --name nginx -o id\n  berth images repos list -o json | jq .[].name',
    )
    .action(async (o: ApiOptions & { parent?: string; name?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Repo>(conn.client, 'registry/v2/repos', 'repos', {
        'uidp.children_of': await resolveParent(conn, o.parent),
        name: o.name,
      });
      printList(items, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'create <name>', 'Create a repository')
    .option('--parent <group>', 'group to create it in, uid or name (default: the organization)')
    .option('--description <text>', 'description')
    .addHelpText('after', '\nExamples:\n  berth images repos create nginx\n  REPO=$(berth images repos create app --description "our app" -o id)')
    .action(async (name: string, o: ApiOptions & { parent?: string; description?: string }) => {
      const conn = await connect(o);
      const repo = await conn.client.call<Repo>('POST', `registry/v2/repos/${uidPath(await resolveParent(conn, o.parent))}`, {
        body: { name, description: o.description },
      });
      printOne(repo, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'update <repo>', `Change a repository (only the fields given); the repo is ${REPO_ARGUMENT}`)
    .option('--parent <group>', 'group a repo name is looked up in, uid or name (default: the organization)')
    .option('--description <text>', 'new description')
    .addHelpText(
      'after',
      '\nExamples:\n  berth images repos update nginx --description "web server, patched"\n  berth images repos update example.com/nginx --description "…"',
    )
    .action(async (ref: string, o: ApiOptions & { parent?: string; description?: string }) => {
      const { body, updateMask } = patchOf({ description: o.description });
      const conn = await connect(o);
      const { uid } = await resolveRepo(conn, ref, o.parent);
      const repo = await conn.client.call<Repo>('PATCH', `registry/v2/repos/${uidPath(uid)}`, { query: { updateMask }, body });
      printOne(repo, o.output, BASIC_COLUMNS);
    });

  apiCommand(repos, 'delete <repo>', `Delete a repository; the repo is ${REPO_ARGUMENT}`)
    .option('--parent <group>', 'group a repo name is looked up in, uid or name (default: the organization)')
    .addHelpText(
      'after',
      '\nExamples:\n  berth images repos delete example.com/nginx\n  berth images repos list --name nginx -o id | xargs -n1 berth images repos delete',
    )
    .action(async (ref: string, o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const { uid } = await resolveRepo(conn, ref, o.parent);
      const body = await conn.client.call('DELETE', `registry/v2/repos/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
