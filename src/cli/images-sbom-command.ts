// berth images sbom ORG/IMAGE[:TAG|@DIGEST]: the packages Berth inventoried
// in an image, over the v1 SBOM RPCs (GetSbom; GetRawSbom for -o spdx).
import { type Command, Option } from 'commander';
import { connect, uidPath } from './api-client.js';
import { resolveRepo } from './image-names.js';
import { tagDigest } from './image-target.js';
import { parseImageReference } from './image-reference.js';
import { formatTable } from './output.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

interface Package2 {
  id?: string;
  name?: string;
  version?: string;
  license?: string;
  description?: string;
  purl?: string;
}

/** ORG/IMAGE@DIGEST, or ORG/IMAGE[:TAG] (default latest). */
function splitReference(text: string): { repo: string; digest?: string; tag?: string } {
  const at = text.indexOf('@');
  if (at >= 0) {
    const digest = text.slice(at + 1);
    if (!DIGEST.test(digest)) throw new Error(`${JSON.stringify(digest)} is not a digest (sha256:<64 lowercase hex>)`);
    const ref = parseImageReference(text.slice(0, at));
    return { repo: `${ref.org}/${ref.image}`, digest };
  }
  const ref = parseImageReference(text);
  return { repo: `${ref.org}/${ref.image}`, tag: ref.tag };
}

export function imagesSbomCommand(images: Command): void {
  images
    .command('sbom <ORG/IMAGE[:TAG|@DIGEST]>')
    .description('Show the packages Berth found in an image (its SBOM), or write it as an SPDX 2.3 document')
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'spdx']).default('table'))
    .addHelpText(
      'after',
      `
The tag defaults to "latest". Berth inventories every pushed image in the
background (docs/vulnerabilities.md); until it is done this command fails
with the scan's state and progress, and can be run again.
For an index (a multi-platform image) the packages of every platform are
listed once.

Output: a table NAME VERSION LICENSE PURL; -o json prints the API's Sbom2
({packages: [{id, name, version, license, description, purl}]}); -o spdx prints
an SPDX 2.3 JSON document to save as a file.
Needs repo.list, sboms.list and manifest.metadata.list on the image (the
viewer role has them).

Examples:
  berth images sbom acme/nginx:1.27
  berth images sbom acme/nginx@sha256:0f3c… -o json | jq -r '.packages[].purl'
  berth images sbom acme/nginx:latest -o spdx > nginx.spdx.json`,
    )
    .action(async (reference: string, o: { credentials?: string; api?: string; output: 'table' | 'json' | 'spdx' }) => {
      const ref = splitReference(reference); // a malformed reference fails before signing in
      const conn = await connect({ credentials: o.credentials, api: o.api, output: 'json' });
      const repo = await resolveRepo(conn, ref.repo);
      const digest = ref.digest ?? (await tagDigest(conn.client, repo.uid, repo.label, ref.tag as string));
      if (o.output === 'spdx') {
        const raw = await conn.client.call<{ rawSbom?: string }>('GET', `registry/v1/repos/${uidPath(repo.uid)}/digest/${digest}/rawsbom`);
        process.stdout.write(`${raw.rawSbom ?? ''}\n`);
        return;
      }
      const sbom = await conn.client.call<{ packages?: Package2[] }>('GET', `registry/v1/repos/${uidPath(repo.uid)}/digests/${digest}/sbom`);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify({ packages: sbom.packages ?? [] }, null, 2)}\n`);
      else
        process.stdout.write(
          formatTable(sbom.packages ?? [], [
            { header: 'NAME', value: (p) => p.name },
            { header: 'VERSION', value: (p) => p.version },
            { header: 'LICENSE', value: (p) => p.license },
            { header: 'PURL', value: (p) => p.purl },
          ]),
        );
    });
}
