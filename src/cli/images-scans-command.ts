// berth images scans import FILE --image ORG/IMAGE[:TAG|@DIGEST]: a Grype or
// Trivy JSON report pushed as a referrer of the image (referrer-push.ts), so
// it is stored by the same path as a referrer any tool pushes (the server's
// scanner-report job); then, unless --no-wait, waits (bounded by --timeout)
// until ListVulnReports lists it. The file is parsed here first, so a file
// the server would refuse fails before anything is pushed.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { GRYPE_REPORT_TYPE, MAX_REPORT_LAYER_BYTES, TRIVY_REPORT_TYPE } from '../scanning/scanner-reports/report-artifact-types.js';
import type { ScannerReport } from '../scanning/scanner-reports/scanner-report.js';
import { apiCommand, type ApiClient, type ApiOptions, connect } from './api-client.js';
import { apiDiscovery, registryHostOfServer } from './api-discovery.js';
import { apiOf, fetchToken, loadCredentials } from './credentials.js';
import { parseDurationFlag } from './duration-flag.js';
import { RegistryPusher, registryToken } from './referrer-push.js';
import { parseScanTarget } from './scan-target-reference.js';

interface ImportOptions extends ApiOptions {
  image: string;
  wait: boolean;
  timeout: string;
  registry?: string;
}

async function readReport(file: string): Promise<{ bytes: Buffer; report: ScannerReport }> {
  // The report parsers are loaded here: other commands start without them.
  const { parseScannerReport } = await import('../scanning/scanner-reports/parse-scanner-report.js');
  const size = statSync(file).size;
  if (size > MAX_REPORT_LAYER_BYTES) throw new Error(`${file} is ${size} bytes; reports up to ${MAX_REPORT_LAYER_BYTES} bytes are accepted`);
  const bytes = readFileSync(file);
  try {
    return { bytes, report: parseScannerReport(bytes) };
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

/** The registry's URL and token audience: --registry (a URL or host), else what the API announces. */
async function registryOf(api: string, flag: string | undefined): Promise<{ url: string; audience: string; issuer: string }> {
  const discovery = await apiDiscovery(api);
  if (flag !== undefined) {
    const audience = registryHostOfServer(flag);
    return { url: flag.includes('://') ? new URL(flag).origin : `https://${audience}`, audience, issuer: discovery.issuer };
  }
  if (!discovery.registryUrl || !discovery.registryAudience) throw new Error(`the Berth API at ${api} announces no registry; pass --registry <url>`);
  return { url: discovery.registryUrl, audience: discovery.registryAudience, issuer: discovery.issuer };
}

/** Polls ListVulnReports until the report is listed; false at the deadline. */
async function waitStored(client: ApiClient, digest: string, report: ScannerReport, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const created = Date.parse(report.createdAt);
  for (let pause = 200; ; pause = Math.min(pause * 2, 2_000)) {
    const { items = [] } = await client.call<{ items?: Array<{ createdAt?: string }> }>('GET', 'registry/v1/vuln_reports', {
      query: { digest, 'scanner.name': report.scanner.name, createdSince: report.createdAt },
    });
    if (items.some((i) => i.createdAt !== undefined && Date.parse(i.createdAt) === created)) return true;
    if (Date.now() + pause > deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}

export function imagesScansCommand(images: Command): void {
  const scans = images.command('scans').description('Scanner reports (Grype JSON, Trivy JSON) kept beside the images they describe');
  apiCommand(scans, 'import <FILE>', 'Push a Grype or Trivy JSON report as a referrer of an image and wait until Berth has stored it')
    .requiredOption('--image <ORG/IMAGE[:TAG|@DIGEST]>', 'the image the report is about')
    .option('--no-wait', 'print the referrer digest and return without waiting for the report to be stored')
    .option('--timeout <duration>', 'how long to wait for the report to be stored', '2m')
    .option('--registry <url>', 'registry URL (default: the one the API announces)')
    .addHelpText(
      'after',
      `
The report (grype -o json, trivy image -f json, or Trivy's cosign-vuln
predicate) is pushed to the registry as an OCI referrer of the image with
artifactType ${GRYPE_REPORT_TYPE} or
${TRIVY_REPORT_TYPE}; Berth reads it from there as it reads
one pushed by any other tool. Needs registry push on the image, and
vuln_report.list to wait for it.

Output: the referrer manifest's digest and, once stored, the report's scanner
and time; -o id prints the digest alone, -o json {referrer, subject, scanner,
version, createdAt, vulnerabilities, stored}.

Examples:
  grype acme/app:1.0 -o json > grype.json && berth images scans import grype.json --image acme/app:1.0
  trivy image -f json -o trivy.json acme/app@sha256:… && berth images scans import trivy.json --image acme/app@sha256:…`,
    )
    .action(async (file: string, o: ImportOptions) => {
      const target = parseScanTarget(o.image);
      const timeoutMs = parseDurationFlag('--timeout', o.timeout, 0, 3_600_000);
      const { bytes, report } = await readReport(file);
      const creds = loadCredentials(o.credentials);
      const api = apiOf(creds, o.api);
      const registry = await registryOf(api, o.registry);
      const berthToken = await fetchToken(creds, api, registry.audience, { issuer: registry.issuer });
      const pusher = new RegistryPusher({ url: registry.url, ...target }, await registryToken(registry.url, target.name, berthToken));
      const subject = await pusher.subject();
      if (report.digest !== undefined && report.digest !== subject.digest && o.output !== 'id') {
        process.stderr.write(`note: the report names ${report.digest}; it is stored for ${subject.digest}, the image ${o.image} names\n`);
      }
      const referrer = await pusher.pushReferrer(subject, {
        artifactType: report.scanner.name === 'GRYPE' ? GRYPE_REPORT_TYPE : TRIVY_REPORT_TYPE,
        bytes,
        title: basename(file),
        created: report.createdAt,
      });
      const stored = o.wait ? await waitStored((await connect(o)).client, subject.digest, report, timeoutMs) : false;
      if (o.output === 'json') {
        const { name, version } = report.scanner;
        const out = {
          referrer,
          subject: subject.digest,
          scanner: name,
          version,
          createdAt: report.createdAt,
          vulnerabilities: report.vulnerabilities.length,
          stored,
        };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else if (o.output === 'id') process.stdout.write(`${referrer}\n`);
      else {
        process.stdout.write(`${referrer}\n`);
        if (stored) {
          const s = report.scanner;
          process.stdout.write(
            `stored: ${s.name} ${s.version} report of ${subject.digest} made ${report.createdAt}, ${report.vulnerabilities.length} vulnerabilities\n`,
          );
        }
      }
      if (o.wait && !stored) {
        process.stderr.write(
          `the report was pushed but not stored within ${o.timeout}; its scan job may still be queued (berth images scans import --no-wait returns at once)\n`,
        );
        process.exitCode = 1;
      }
    });
}
