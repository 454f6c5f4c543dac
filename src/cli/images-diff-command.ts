// berth images diff A B: packages added, removed and changed from image A to
// image B (their SBOMs, GetSbom) and vulnerabilities fixed and introduced
// (their reports, as `berth images vulns` picks them); image-diff.ts compares.
// A and B are any two images the caller sees, in one repo or two.
import { type Command, Option } from 'commander';
import { type Connection, connect, uidPath } from './api-client.js';
import type { PackageChange, PackageVersion, SbomPackage } from './image-diff.js';
import { checkImageArguments, type ImageTarget, resolveImageTarget } from './image-target.js';
import { imageReport, noReportMessage, type ReportVulnerability, reportSource, SCANNERS, type ScannerChoice, type VulnReport } from './image-vuln-report.js';
import { formatTable } from './output.js';
import { fixStateText, severityOf } from './vuln-severity.js';

interface DiffOptions {
  credentials?: string;
  api?: string;
  output: 'table' | 'json';
  platform?: string;
  scanner?: ScannerChoice;
}

interface Side {
  target: ImageTarget;
  packages: SbomPackage[];
  report?: VulnReport;
  /** Why there is no report. */
  why?: string;
}

async function readSide(conn: Connection, reference: string, o: DiffOptions): Promise<Side> {
  const target = await resolveImageTarget(conn, reference, o.platform);
  const [sbom, answer] = await Promise.all([
    conn.client.call<{ packages?: SbomPackage[] }>('GET', `registry/v1/repos/${uidPath(target.repoUid)}/digests/${target.imageDigest}/sbom`),
    imageReport(conn.client, target, o.scanner),
  ]);
  return { target, packages: sbom.packages ?? [], ...(answer.report ? { report: answer.report } : { why: answer.why }) };
}

function describeSide(s: Side) {
  const { label, digest, imageDigest, platform } = s.target;
  const report = s.report ? { digest: s.report.digest, scanner: s.report.scanner ?? {}, createdAt: s.report.createdAt ?? '' } : null;
  return { image: label, digest, imageDigest, platform, report };
}

function section<T>(title: string, items: readonly T[], columns: { header: string; value: (x: T) => string | undefined }[]): string {
  return `${title} (${items.length})\n${items.length === 0 ? '(none)\n' : formatTable(items, columns)}`;
}

const PACKAGE_COLUMNS = [
  { header: 'NAME', value: (p: PackageVersion) => p.name },
  { header: 'VERSION', value: (p: PackageVersion) => p.version },
  { header: 'PURL', value: (p: PackageVersion) => p.purl },
];
const CHANGE_COLUMNS = [
  { header: 'NAME', value: (c: PackageChange) => c.name },
  { header: 'FROM', value: (c: PackageChange) => c.previous.version },
  { header: 'TO', value: (c: PackageChange) => c.current.version },
];
const VULN_COLUMNS = [
  { header: 'ID', value: (v: ReportVulnerability) => v.id },
  { header: 'SEVERITY', value: (v: ReportVulnerability) => severityOf(v) },
  { header: 'PACKAGE', value: (v: ReportVulnerability) => v.package?.name || v.purls?.[0] || '-' },
  { header: 'VERSION', value: (v: ReportVulnerability) => v.package?.version || '-' },
  { header: 'FIXED IN', value: (v: ReportVulnerability) => v.fix?.versions?.join(', ') || '-' },
  { header: 'FIX STATE', value: (v: ReportVulnerability) => fixStateText(v) },
];

export function imagesDiffCommand(images: Command): void {
  images
    .command('diff <A> <B>')
    .description('Show what changed from image A to image B: packages added, removed and changed; vulnerabilities fixed and introduced')
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'))
    .option('--platform <os/arch[/variant]>', 'the image of a multi-platform index to compare (default linux/amd64)')
    .addOption(new Option('--scanner <name>', "whose reports: Berth's own, or the newest imported Grype or Trivy reports").choices(SCANNERS))
    .addHelpText(
      'after',
      `
A and B are ORG/IMAGE[:TAG|@DIGEST] (the tag defaults to "latest"), in the
same repo or in two. Packages come from each image's SBOM (berth images sbom),
vulnerabilities from each image's report, chosen as berth images vulns
chooses it (--scanner likewise): fixed are in A's report and not in B's,
introduced in B's and not in A's. For an index the --platform image is
compared.

When either image has no report yet the package changes are still printed,
the vulnerabilities are not compared (null in JSON), and the exit status is 1.

Output: five tables (packages added, removed, changed FROM → TO;
vulnerabilities fixed, introduced); -o json prints
{from, to, packages: {added, removed, changed: [{name, previous, current}]},
 vulnerabilities: {fixed, introduced}}.
Needs what berth images sbom and berth images vulns need, on both images
(the viewer role has it).

Examples:
  berth images diff acme/nginx:1.26 acme/nginx:1.27
  berth images diff acme/app@sha256:0f3c… acme/app:latest -o json | jq '.vulnerabilities.introduced[].id'`,
    )
    .action(async (a: string, b: string, o: DiffOptions) => {
      // The diff (with its purl parser) is loaded here: other commands start without it.
      const { diffPackages, diffVulnerabilities } = await import('./image-diff.js');
      checkImageArguments(a, o.platform);
      checkImageArguments(b, o.platform);
      const conn = await connect({ credentials: o.credentials, api: o.api, output: 'json' });
      const [from, to] = await Promise.all([readSide(conn, a, o), readSide(conn, b, o)]);
      const packages = diffPackages(from.packages, to.packages);
      const vulns = from.report && to.report ? diffVulnerabilities(from.report.vulnerabilities ?? [], to.report.vulnerabilities ?? []) : null;
      if (o.output === 'json') {
        process.stdout.write(`${JSON.stringify({ from: describeSide(from), to: describeSide(to), packages, vulnerabilities: vulns }, null, 2)}\n`);
      } else {
        const out = [
          section('Packages added', packages.added, PACKAGE_COLUMNS),
          section('Packages removed', packages.removed, PACKAGE_COLUMNS),
          section('Packages changed', packages.changed, CHANGE_COLUMNS),
        ];
        if (vulns) {
          out.push(section('Vulnerabilities fixed', vulns.fixed, VULN_COLUMNS), section('Vulnerabilities introduced', vulns.introduced, VULN_COLUMNS));
          out.push(`A: ${reportSource(from.report as VulnReport)}\nB: ${reportSource(to.report as VulnReport)}\n`);
        } else out.push('Vulnerabilities: not compared (see below)\n');
        process.stdout.write(out.join('\n'));
      }
      const scanners = [from.report?.scanner?.name, to.report?.scanner?.name];
      if (vulns && scanners[0] !== scanners[1]) {
        process.stderr.write(`note: A's report is ${scanners[0]}'s and B's ${scanners[1]}'s; some differences may be the scanners'\n`);
      }
      for (const side of [from, to]) {
        if (side.report) continue;
        process.stderr.write(`berth: ${noReportMessage(side.target, side.why ?? '')}\n`);
        process.exitCode = 1;
      }
    });
}
