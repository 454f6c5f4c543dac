// berth images tags: list, create (or move) and delete the tags of a
// repository. A tag is named ORG/REPO:TAG, by name with --repo, or by uid; a
// repo as ORG/REPO, by name in --parent, or by uid (image-names.ts).
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiClient, type ApiOptions } from './api-client.js';
import { resolveRepo, resolveTag } from './image-names.js';
import { parseImageReference } from './image-reference.js';
import { listAll } from './list-all.js';
import { isUid } from './name-resolution.js';
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
const REPO_OPTION = 'repository: ORG/REPO, a name in --parent (default: the organization), or a uid';
const PARENT_OPTION = 'group a --repo name is looked up in, uid or name (default: the organization)';

/** The digest the repo's tag `name` points at now; undefined when there is no such tag. */
async function currentDigest(client: ApiClient, repoUid: string, name: string): Promise<string | undefined> {
  const page = await client.call<{ tags?: Tag[] }>('GET', 'registry/v2/tags', {
    query: { 'uidp.children_of': repoUid, name, include_referrers: 'true', include_dates: 'true', include_epochs: 'true', page_size: 1 },
  });
  return page.tags?.[0]?.digest;
}

export function imagesTagsCommand(images: Command): void {
  const tags = images
    .command('tags')
    .description('Manage the tags of a repository (a tag names an image digest)')
    .addHelpText(
      'after',
      `
Examples:
  berth images tags list --repo example.com/nginx
  berth images tags create example.com/nginx:1.27 --digest sha256:<64 hex>
  berth images tags create latest --repo nginx --digest sha256:<64 hex>
  berth images tags delete example.com/nginx:1.27`,
    );

  apiCommand(tags, 'list', 'List the tags of a repository (all pages)')
    .requiredOption('--repo <repo>', REPO_OPTION)
    .option('--parent <group>', PARENT_OPTION)
    .addHelpText(
      'after',
      '\nExamples:\n  berth images tags list --repo example.com/nginx\n  berth images tags list --repo nginx -o json | jq -r ".[] | select(.deprecated) | .name"',
    )
    .action(async (o: ApiOptions & { repo: string; parent?: string }) => {
      const conn = await connect(o);
      const repo = await resolveRepo(conn, o.repo, o.parent);
      const items = await listAll<Tag>(conn.client, 'registry/v2/tags', 'tags', { 'uidp.children_of': repo.uid });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(tags, 'create <tag>', 'Point a tag (ORG/REPO:TAG, or a name with --repo) at an image digest; an existing tag is moved')
    .option('--repo <repo>', `${REPO_OPTION}; needed when the tag is a bare name`)
    .option('--parent <group>', PARENT_OPTION)
    .requiredOption('--digest <digest>', 'image digest, sha256:<64 hex>')
    .option('--deprecated', 'mark the tag end-of-life', false)
    .addHelpText(
      'after',
      `
An existing tag of that name is moved to the digest ("moved TAG from OLD to
NEW" on stderr); the tag history keeps every digest it pointed to.

Examples:
  berth images tags create example.com/nginx:1.27 --digest sha256:3f1c…
  berth images tags create 1.27 --repo nginx --digest sha256:3f1c…`,
    )
    .action(async (ref: string, o: ApiOptions & { repo?: string; parent?: string; digest: string; deprecated: boolean }) => {
      if (!DIGEST.test(o.digest)) throw new Error(`--digest must be sha256:<64 lowercase hex>, got ${JSON.stringify(o.digest)}`);
      // Without --repo the tag names its repo: ORG/REPO:TAG.
      const parsed = o.repo === undefined ? parseImageReference(ref) : undefined;
      const name = parsed?.tag ?? ref;
      const conn = await connect(o);
      const repo = await resolveRepo(conn, parsed ? `${parsed.org}/${parsed.image}` : (o.repo as string), parsed ? undefined : o.parent);
      // The API answers a create and a move alike; read the tag first so a move is said.
      const before = await currentDigest(conn.client, repo.uid, name);
      const tag = await conn.client.call<Tag>('POST', `registry/v2/tags/${uidPath(repo.uid)}`, {
        body: { name, digest: o.digest, deprecated: o.deprecated || undefined },
      });
      if (before !== undefined && before !== tag.digest) process.stderr.write(`moved ${name} from ${before} to ${tag.digest}\n`);
      printOne(tag, o.output, COLUMNS);
    });

  apiCommand(tags, 'delete <tag>', 'Delete a tag: ORG/REPO:TAG, a name with --repo, or a uid')
    .option('--repo <repo>', `${REPO_OPTION}; needed when the tag is a bare name`)
    .option('--parent <group>', PARENT_OPTION)
    .addHelpText('after', '\nExamples:\n  berth images tags delete example.com/nginx:1.27\n  berth images tags delete 1.27 --repo nginx')
    .action(async (ref: string, o: ApiOptions & { repo?: string; parent?: string }) => {
      // No "latest" by default here: a delete names its tag.
      if (o.repo === undefined && !isUid(ref) && !/:[^/]*$/.test(ref))
        throw new Error(`give the tag to delete as ORG/REPO:TAG (or a name with --repo), got ${JSON.stringify(ref)}`);
      const conn = await connect(o);
      const { tagUid } = await resolveTag(conn, ref, o.repo, o.parent);
      const body = await conn.client.call('DELETE', `registry/v2/tags/${uidPath(tagUid)}`);
      printDeleted(tagUid, body, o.output);
    });
}
