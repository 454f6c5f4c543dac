// berth images history ORG/IMAGE:TAG: every digest a tag pointed to, oldest
// first, each with the image it pulls per architecture (its own digest and
// size), as `chainctl images history` prints it.
import type { Command } from 'commander';
import { apiCommand, connect, type ApiOptions } from './api-client.js';
import { tagHistory, type HistoryPlatform, type HistoryRecord } from './image-history.js';
import { resolveTag } from './image-names.js';
import { parseImageReference } from './image-reference.js';
import { isUid } from './name-resolution.js';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Decimal units, two places (23.14 MB), as registries and chainctl show image sizes. */
export function formatBytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(2)} ${UNITS[unit]}`;
}

/** amd64, arm/v7, windows/amd64; "unknown platform" when the image does not say. */
function platformLabel(p: HistoryPlatform): string {
  if (p.architecture === '') return 'unknown platform';
  const arch = p.variant ? `${p.architecture}/${p.variant}` : p.architecture;
  return p.os === '' || p.os === 'linux' ? arch : `${p.os}/${arch}`;
}

function formatRecords(records: readonly HistoryRecord[]): string {
  const out: string[] = [];
  for (const r of records) {
    out.push(`- time: ${r.updateTimestamp}`, `  digest: ${r.digest}`);
    if (!r.held) out.push('  architectures: (the repository no longer holds this manifest)');
    else if (r.platforms.length === 0) out.push('  architectures: {}');
    else {
      out.push('  architectures:');
      for (const p of r.platforms) out.push(`    ${platformLabel(p)}: ${p.digest} (${formatBytes(p.size)})`);
    }
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function timeOption(name: string, v: string | undefined): string | undefined {
  if (v !== undefined && !TIME.test(v)) throw new Error(`--${name} must be an RFC 3339 time such as 2024-01-01T00:00:00Z`);
  return v;
}

export function imagesHistoryCommand(images: Command): void {
  apiCommand(
    images,
    'history <ORG/IMAGE:TAG>',
    "Show every digest a tag (ORG/IMAGE[:TAG] or a tag uid) has pointed to, oldest first, with each architecture's image and size",
  )
    .option('--start <time>', 'only records at or after this RFC 3339 time')
    .option('--end <time>', 'only records before this RFC 3339 time')
    .addHelpText(
      'after',
      `
The tag defaults to "latest"; a tag uid (berth images tags list -o id) works
too. Each time the tag moved, the digest it moved
to and, per architecture, the image a client of that architecture pulls
(its own manifest digest and size, config plus layers):

  - time: 2024-05-12T13:46:10.555Z
    digest: sha256:0f3c…
    architectures:
      amd64: sha256:8a1e… (23.14 MB)
      arm64: sha256:c27d… (22.01 MB)

At most 1000 records per call; narrow with --start/--end. Needs groups.list
on the organization and repo.list, tag.list and manifest.metadata.list on
the image (the viewer and registry.pull roles have them).

Output: -o json prints [{updateTimestamp, digest, held, platforms:
[{architecture, os, variant, digest, size}]}] (held is false once the
manifest was deleted); -o id prints the digests alone, oldest first.

Examples:
  berth images history acme/nginx:latest
  berth images history acme/nginx:1.27 --start 2024-01-01T00:00:00Z
  berth images history acme/nginx:latest -o id | tail -n 1     # the digest to pin
  berth images history acme/nginx:latest -o json | jq '.[-1].platforms[] | select(.architecture=="arm64").digest'`,
    )
    .action(async (reference: string, o: ApiOptions & { start?: string; end?: string }) => {
      if (!isUid(reference)) parseImageReference(reference); // a malformed reference fails before signing in
      const window = { start: timeOption('start', o.start), end: timeOption('end', o.end) };
      const conn = await connect(o);
      const records = await tagHistory(conn.client, await resolveTag(conn, reference), window);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      else if (o.output === 'id') process.stdout.write(records.map((r) => `${r.digest}\n`).join(''));
      else process.stdout.write(formatRecords(records));
    });
}
