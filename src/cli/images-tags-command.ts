// berth images tags: list, create and delete the tags of a repository.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { printDeleted, printList, printOne, type Column } from './output.js';

interface Tag {
  uid: string;
  name: string;
  digest: string;
  deprecated?: boolean;
  updateTime?: string;
}

const COLUMNS: readonly Column<Tag>[] = [
  { header: 'NAME', value: (t) => t.name },
  { header: 'DIGEST', value: (t) => t.digest },
  { header: 'DEPRECATED', value: (t) => (t.deprecated ? 'yes' : 'no') },
  { header: 'UPDATED', value: (t) => t.updateTime },
];

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function imagesTagsCommand(images: Command): void {
  const tags = images
    .command('tags')
    .description('Manage the tags of a repository (a tag names an image digest)')
    .addHelpText(
      'after',
      `
Examples:
  REPO=$(berth images repos list --name nginx -o id)
  berth images tags list --repo $REPO
  berth images tags create latest --repo $REPO --digest sha256:<64 hex>
  berth images tags delete <tag uid>`,
    );

  apiCommand(tags, 'list', 'List the tags of a repository (all pages)')
    .requiredOption('--repo <uid>', 'repository uid')
    .addHelpText(
      'after',
      '\nExamples:\n  berth images tags list --repo <repo uid>\n  berth images tags list --repo <repo uid> -o json | jq -r ".[] | select(.deprecated) | .name"',
    )
    .action(async (o: ApiOptions & { repo: string }) => {
      const conn = await connect(o);
      const items = await listAll<Tag>(conn.client, 'registry/v2/tags', 'tags', { 'uidp.children_of': o.repo });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(tags, 'create <name>', 'Point a new tag at an image digest')
    .requiredOption('--repo <uid>', 'repository uid')
    .requiredOption('--digest <digest>', 'image digest, sha256:<64 hex>')
    .option('--deprecated', 'mark the tag end-of-life', false)
    .addHelpText('after', '\nExample:\n  berth images tags create 1.27 --repo <repo uid> --digest sha256:3f1c…')
    .action(async (name: string, o: ApiOptions & { repo: string; digest: string; deprecated: boolean }) => {
      if (!DIGEST.test(o.digest)) throw new Error(`--digest must be sha256:<64 lowercase hex>, got ${JSON.stringify(o.digest)}`);
      const conn = await connect(o);
      const tag = await conn.client.call<Tag>('POST', `registry/v2/tags/${uidPath(o.repo)}`, {
        body: { name, digest: o.digest, deprecated: o.deprecated || undefined },
      });
      printOne(tag, o.output, COLUMNS);
    });

  apiCommand(tags, 'delete <uid>', 'Delete a tag')
    .addHelpText('after', '\nExample:\n  berth images tags delete <tag uid>')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      const body = await conn.client.call('DELETE', `registry/v2/tags/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
