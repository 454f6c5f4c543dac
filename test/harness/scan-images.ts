// Images with package databases for the scanning tests (file layers built by
// oci-file-layers.ts), the SPDX document a referrer carries, and polling the v1
// SBOM endpoint until the inventory is stored.
import assert from 'node:assert/strict';
import { rest, type RestResult } from './api-client.js';
import type { LayerFiles } from './oci-file-layers.js';

export function osRelease(id: string, version: string): string {
  return `NAME="${id}"\nID=${id}\nVERSION_ID=${version}\nPRETTY_NAME="${id} ${version}"\n`;
}

/** An apk installed database with these packages (name, version, origin). */
export function apkInstalled(packages: { name: string; version: string; origin?: string; license?: string }[], arch = 'x86_64'): string {
  return packages
    .map((p) => [`P:${p.name}`, `V:${p.version}`, `A:${arch}`, `o:${p.origin ?? p.name}`, `L:${p.license ?? 'MIT'}`, `T:${p.name} package`, ''].join('\n'))
    .join('\n');
}

/** The layers of an Alpine-like image: os-release and an apk database. */
export function alpineLayers(packages: { name: string; version: string; origin?: string; license?: string }[], arch = 'x86_64'): LayerFiles[] {
  return [{ 'etc/os-release': osRelease('alpine', '3.19.1'), 'lib/apk/db/installed': apkInstalled(packages, arch) }];
}

/** A minimal SPDX 2.3 document listing these purls. */
export function spdxWith(purls: { name: string; version: string; purl: string }[]): string {
  return JSON.stringify({
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: 'attached',
    documentNamespace: 'https://example.com/spdx/attached',
    creationInfo: { created: '2026-01-01T00:00:00Z', creators: ['Tool: test'] },
    packages: purls.map((p, i) => ({
      SPDXID: `SPDXRef-Package-${i}`,
      name: p.name,
      versionInfo: p.version,
      downloadLocation: 'NOASSERTION',
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: p.purl }],
    })),
  });
}

export const sbomPath = (repoUid: string, digest: string) => `/registry/v1/repos/${repoUid}/digests/${digest}/sbom`;
export const rawSbomPath = (repoUid: string, digest: string) => `/registry/v1/repos/${repoUid}/digest/${digest}/rawsbom`;

/**
 * GETs `path` until it is served (200) and `ready` accepts it, at most
 * `timeoutMs`; while the scan behind it is not done the answer must be 503
 * (retryable, with the job's state). For the SBOM and report endpoints.
 */
export async function waitForScanAnswer(
  base: string,
  token: string,
  path: string,
  what: string,
  ready: (r: RestResult) => boolean = () => true,
  timeoutMs = 90_000,
): Promise<RestResult> {
  const end = Date.now() + timeoutMs;
  let last: RestResult | undefined;
  while (Date.now() < end) {
    last = await rest(base, 'GET', path, { token });
    if (last.status === 200 && ready(last)) return last;
    if (last.status !== 200) assert.equal(last.status, 503, `not ready must be 503 UNAVAILABLE: ${last.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what} was not as expected in ${timeoutMs} ms: ${last?.status} ${last?.text.slice(0, 2000)}`);
}

/** Polls the SBOM of `digest` (waitForScanAnswer). */
export function waitForSbom(
  base: string,
  token: string,
  repoUid: string,
  digest: string,
  ready: (r: RestResult) => boolean = () => true,
  timeoutMs = 90_000,
): Promise<RestResult> {
  return waitForScanAnswer(base, token, sbomPath(repoUid, digest), `the SBOM of ${digest}`, ready, timeoutMs);
}
