// berth images vulns ORG/IMAGE[:TAG|@DIGEST]: the vulnerabilities of an image
// from its report (image-vuln-report.ts: Berth's own, else the newest
// scanner report; --scanner picks one), most severe first; --severity
// narrows, -o json prints the report. No report yet is an error saying why
// and what to do (exit status 1).
import { type Command, Option } from 'commander';
import { connect } from './api-client.js';
import { checkImageArguments, resolveImageTarget } from './image-target.js';
import { imageReport, noReportMessage, type ReportVulnerability, reportSource, SCANNERS, type ScannerChoice } from './image-vuln-report.js';
import { formatTable } from './output.js';
import { bySeverity, fixStateText, parseSeverityFilter, severityCounts, severityOf } from './vuln-severity.js';

interface VulnsOptions {
  credentials?: string;
  api?: string;
  output: 'table' | 'json';
  severity?: string;
  platform?: string;
  scanner?: ScannerChoice;
}

const COLUMNS = [
  { header: 'ID', value: (v: ReportVulnerability) => v.id },
  { header: 'SEVERITY', value: (v: ReportVulnerability) => severityOf(v) },
  { header: 'PACKAGE', value: (v: ReportVulnerability) => v.package?.name || v.purls?.[0] || '-' },
  { header: 'INSTALLED', value: (v: ReportVulnerability) => v.package?.version || '-' },
  { header: 'FIXED IN', value: (v: ReportVulnerability) => v.fix?.versions?.join(', ') || '-' },
  { header: 'FIX STATE', value: (v: ReportVulnerability) => fixStateText(v) },
];

export function imagesVulnsCommand(images: Command): void {
  images
    .command('vulns <ORG/IMAGE[:TAG|@DIGEST]>')
    .description("Show an image's vulnerabilities, most severe first")
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'))
    .option('--severity <levels>', 'only these severities, comma-separated: critical, high, medium, low, negligible, unknown')
    .option('--platform <os/arch[/variant]>', 'the image of a multi-platform index to show (default linux/amd64)')
    .addOption(new Option('--scanner <name>', "whose report: Berth's own, or the newest imported Grype or Trivy report").choices(SCANNERS))
    .addHelpText(
      'after',
      `
The tag defaults to "latest". The report is Berth's own (docs/vulnerabilities.md)
once its scan is done; until then, the newest a scanner made that was imported
for the image (berth images scans import). --scanner berth|grype|trivy shows
that one only. For an index, the report of the --platform image is shown (a
scanner's imported for the index itself if that image has none). No report to
show: the command says why and exits with status 1.

Output: a table ID SEVERITY PACKAGE INSTALLED FIXED IN FIX STATE, most severe
first, then a line with the counts and the report's scanner and time;
-o json prints the report as ListVulnReports gives it (digest, scanner,
createdAt, vulnerabilities), with only the --severity levels asked for.
Needs repo.list, manifest.metadata.list, vuln_reports.list (Berth's
report) and vuln_report.list (scanners' reports) on the image (the viewer
role has them).

Examples:
  berth images vulns acme/nginx:1.27
  berth images vulns acme/nginx:1.27 --severity critical,high
  berth images vulns acme/nginx:1.27 --scanner grype
  berth images vulns acme/node@sha256:0f3c… --platform linux/arm64 -o json | jq -r '.vulnerabilities[].id'`,
    )
    .action(async (reference: string, o: VulnsOptions) => {
      // Malformed arguments fail before signing in.
      checkImageArguments(reference, o.platform);
      const levels = o.severity === undefined ? undefined : parseSeverityFilter(o.severity);
      const conn = await connect({ credentials: o.credentials, api: o.api, output: 'json' });
      const target = await resolveImageTarget(conn, reference, o.platform);
      const answer = await imageReport(conn.client, target, o.scanner);
      if (!answer.report) {
        process.stderr.write(`berth: ${noReportMessage(target, answer.why)}\n`);
        process.exitCode = 1;
        return;
      }
      const report = answer.report;
      const vulns = (report.vulnerabilities ?? []).filter((v) => levels === undefined || levels.has(severityOf(v))).sort(bySeverity);
      if (o.output === 'json') {
        process.stdout.write(`${JSON.stringify({ ...report, vulnerabilities: vulns }, null, 2)}\n`);
        return;
      }
      if (vulns.length > 0) process.stdout.write(formatTable(vulns, COLUMNS));
      process.stdout.write(`${severityCounts(vulns)}${levels ? ` (of ${report.vulnerabilities?.length ?? 0})` : ''} · ${reportSource(report)}\n`);
    });
}
