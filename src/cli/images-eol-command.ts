// berth images eol ORG/IMAGE: the image's tags with the lifecycle of their
// release streams (ListEolTags), as a table, or the API's items with -o json.
import type { Command } from 'commander';
import { apiCommand, connect, type ApiOptions } from './api-client.js';
import { resolveRepo } from './image-names.js';
import { listAll } from './list-all.js';
import { formatTable, type Column } from './output.js';

interface EolTag {
  id: string;
  name: string;
  mainPackageName?: string;
  tagStatus?: string;
  graceStatus?: string;
  gracePeriodExpiryDate?: string;
  mainPackageVersion?: {
    version?: string;
    eolDate?: string;
    releaseDate?: string;
    exists?: boolean;
    lts?: boolean;
    eolBroken?: boolean;
    latestVersion?: string;
  };
}

// proto3 JSON leaves out zero values: an absent enum is its first value.
const COLUMNS: readonly Column<EolTag>[] = [
  { header: 'TAG', value: (t) => t.name },
  { header: 'PRODUCT', value: (t) => t.mainPackageName || '-' },
  { header: 'STREAM', value: (t) => (t.mainPackageVersion?.exists ? t.mainPackageVersion.version : '(unknown)') },
  { header: 'LTS', value: (t) => (t.mainPackageVersion?.lts ? 'yes' : 'no') },
  { header: 'RELEASED', value: (t) => t.mainPackageVersion?.releaseDate || '-' },
  { header: 'EOL', value: (t) => t.mainPackageVersion?.eolDate || '-' },
  { header: 'STATUS', value: (t) => (t.tagStatus ?? 'TAG_ACTIVE').replace(/^TAG_/, '') },
  { header: 'GRACE', value: (t) => (t.graceStatus ?? 'GRACE_NOT_ELIGIBLE').replace(/^GRACE_/, '') },
  { header: 'GRACE ENDS', value: (t) => t.gracePeriodExpiryDate?.slice(0, 10) || '-' },
];

export function imagesEolCommand(images: Command): void {
  apiCommand(images, 'eol <ORG/IMAGE>', "Show an image's tags with the end-of-life status of their release streams")
    .option('--parent <group>', 'group a bare image name is looked up in, uid or name (default: the organization)')
    .option('--name <tag>', 'only this tag')
    .option('--exclude-dates', 'leave out date tags (*-20yymmdd)', false)
    .option('--exclude-epochs', 'leave out epoch tags (*-r<N>)', false)
    .addHelpText(
      'after',
      `
Streams and dates come from the endoflife.date data the operator imported
(berth eol import). A tag in grace (STATUS IN_GRACE) is still rebuilt for up
to 6 months after its stream's EOL date (GRACE ENDS); docs/vulnerabilities.md
("EOL tags") gives the rules. Needs tag.list on the image.

Examples:
  berth images eol acme/node
  berth images eol acme/python --exclude-dates --exclude-epochs
  berth images eol acme/node -o json | jq -r '.[] | select(.tagStatus=="TAG_IN_GRACE") | .name'`,
    )
    .action(async (image: string, o: ApiOptions & { parent?: string; name?: string; excludeDates: boolean; excludeEpochs: boolean }) => {
      const conn = await connect(o);
      const repo = await resolveRepo(conn, image, o.parent);
      const query: Record<string, string> = { 'uidp.children_of': repo.uid };
      if (o.name !== undefined) query.name = o.name;
      if (o.excludeDates) query.exclude_dates = 'true';
      if (o.excludeEpochs) query.exclude_epochs = 'true';
      const items = await listAll<EolTag>(conn.client, 'registry/v1/eoltags', 'items', query);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
      else if (o.output === 'id') process.stdout.write(items.map((t) => `${t.id}\n`).join(''));
      else process.stdout.write(formatTable(items, COLUMNS));
    });
}
