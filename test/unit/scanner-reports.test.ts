// The scanner report parsers on real-shaped Grype and Trivy JSON (fixtures in
// test/fixtures/scanner-reports, cut from the scanners' own test goldens and
// output), one case per rule of the mapping (reference §3.3), and hostile input.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseGrypeReport } from '../../src/scanning/scanner-reports/grype-report.js';
import { COSIGN_VULN_PREDICATE, parseScannerReport } from '../../src/scanning/scanner-reports/parse-scanner-report.js';
import { MAX_REPORT_MATCHES, ScannerReportError } from '../../src/scanning/scanner-reports/scanner-report.js';
import { parseTrivyReport } from '../../src/scanning/scanner-reports/trivy-report.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'scanner-reports');
const grypeBytes = readFileSync(join(FIXTURES, 'grype-alpine.json'));
const trivyBytes = readFileSync(join(FIXTURES, 'trivy-alpine.json'));
const enc = (v: unknown) => Buffer.from(JSON.stringify(v));

function refused(bytes: Uint8Array, pattern: RegExp, parse = parseScannerReport): void {
  assert.throws(
    () => parse(bytes),
    (err: unknown) => err instanceof ScannerReportError && pattern.test(err.message),
  );
}

describe('Grype JSON', () => {
  const report = parseGrypeReport(grypeBytes);
  const byId = new Map(report.vulnerabilities.map((v) => [`${v.id} ${v.package.name}`, v]));

  it('takes the scanner from descriptor: name, version, db.status.built, timestamp (to UTC), and source.target.manifestDigest', () => {
    assert.deepEqual(report.scanner, { name: 'GRYPE', version: '0.79.3', dbBuildTime: '2025-03-14T01:31:06.000Z' });
    assert.equal(report.createdAt, '2025-03-14T15:49:15.473Z');
    assert.equal(report.digest, 'sha256:ca738abb87a8d58f112d3400ebb079b61ceae7dc290beb34bda735be4b1941d5');
    assert.equal(report.vulnerabilities.length, 5);
  });

  it('maps a fixed distro match: description from relatedVulnerabilities[0], package, purl, locations, urls', () => {
    assert.deepEqual(byId.get('CVE-2024-5535 libcrypto3'), {
      id: 'CVE-2024-5535',
      aliases: [],
      purls: ['pkg:apk/alpine/libcrypto3@3.3.0-r2?arch=x86_64&distro=alpine-3.20.0&upstream=openssl'],
      description:
        'Issue summary: Calling the OpenSSL API function SSL_select_next_proto with an empty supported client protocols buffer may cause a crash or memory contents to be sent to the peer.',
      details: '',
      severity: 'CRITICAL',
      cvss: [],
      fix: { versions: ['3.3.1-r1'], state: 'FIXED' },
      relatedUrls: ['https://security.alpinelinux.org/vuln/CVE-2024-5535'],
      locations: ['/lib/apk/db/installed'],
      package: {
        name: 'libcrypto3',
        version: '3.3.0-r2',
        purl: 'pkg:apk/alpine/libcrypto3@3.3.0-r2?arch=x86_64&distro=alpine-3.20.0&upstream=openssl',
        type: 'apk',
      },
    });
  });

  it('keeps a GHSA id with its related CVE as an alias, and cvss {score: baseScore, version}', () => {
    const v = byId.get('GHSA-3f63-hfp8-52jq Pillow');
    assert.deepEqual(v?.aliases, ['CVE-2023-50447']);
    assert.deepEqual(v?.cvss, [{ score: '9.8', version: '3.1' }]);
    assert.equal(v?.description, 'Arbitrary Code Execution in Pillow');
    assert.equal(v?.severity, 'HIGH');
    assert.equal(v?.locations.length, 2);
  });

  it('keeps Negligible as NEGLIGIBLE and maps wont-fix, not-fixed and an empty state', () => {
    assert.equal(byId.get('CVE-2023-4039 libgcc-s1')?.severity, 'NEGLIGIBLE');
    assert.deepEqual(byId.get('CVE-2023-4039 libgcc-s1')?.fix, { versions: [], state: 'WONT_FIX' });
    assert.deepEqual(byId.get('CVE-2011-3374 apt')?.fix, { versions: [], state: 'NOT_FIXED' });
    assert.equal(byId.get('CVE-2011-3374 apt')?.description, '');
    const unknown = byId.get('CVE-1999-0002 package-2');
    assert.deepEqual(unknown?.fix, { versions: [], state: 'UNKNOWN' });
    assert.deepEqual(unknown?.purls, []);
    assert.equal(unknown?.severity, 'MEDIUM');
  });

  it('refuses a report without a time (the upstream golden leaves timestamp empty)', () => {
    const doc = JSON.parse(grypeBytes.toString());
    doc.descriptor.timestamp = '';
    refused(enc(doc), /descriptor\.timestamp/);
  });

  it('names the field of a wrong type', () => {
    const doc = JSON.parse(grypeBytes.toString());
    doc.matches[1].vulnerability.severity = 7;
    refused(enc(doc), /matches\[1\]\.vulnerability\.severity: must be a string/);
  });
});

describe('Trivy JSON', () => {
  const report = parseTrivyReport(trivyBytes);
  const byId = new Map(report.vulnerabilities.map((v) => [v.id, v]));

  it('takes Trivy.Version, CreatedAt and the digest of Metadata.RepoDigests; no database time', () => {
    assert.deepEqual(report.scanner, { name: 'TRIVY', version: '0.58.1' });
    assert.equal(report.createdAt, '2021-08-25T12:20:30.000Z');
    assert.equal(report.digest, 'sha256:72c0f5b8a6f1e0e4d6f0ab6fc2d4a8f3d1a7c9b5e3f1d2c4b6a8e0f2d4c6b8a0');
  });

  it('drops not_affected and keeps every other entry', () => {
    assert.equal(byId.has('CVE-2022-0001'), false);
    assert.equal(report.vulnerabilities.length, 8);
  });

  it('maps an OS package entry: one cvss per source and version, PrimaryURL first among the references', () => {
    assert.deepEqual(byId.get('CVE-2019-1549'), {
      id: 'CVE-2019-1549',
      aliases: [],
      purls: ['pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?arch=x86_64&distro=3.10.2'],
      description:
        'OpenSSL 1.1.1 introduced a rewritten random number generator (RNG). This was intended to include protection in the event of a fork() system call in order to ensure that the parent and child processes did not share the same RNG state.',
      details: '',
      severity: 'MEDIUM',
      cvss: [
        { score: '5.0', version: '2.0' },
        { score: '5.3', version: '3.1' },
        { score: '4.8', version: '3.0' },
      ],
      fix: { versions: ['1.1.1d-r0'], state: 'FIXED' },
      relatedUrls: [
        'https://avd.aquasec.com/nvd/cve-2019-1549',
        'https://access.redhat.com/security/cve/CVE-2019-1549',
        'https://www.openssl.org/news/secadv/20190910.txt',
      ],
      locations: [],
      package: { name: 'libcrypto1.1', version: '1.1.1c-r0', purl: 'pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?arch=x86_64&distro=3.10.2', type: 'alpine' },
    });
  });

  it('splits FixedVersion on "," and falls back to Title for an empty Description', () => {
    const v = byId.get('CVE-2023-5678');
    assert.deepEqual(v?.fix, { versions: ['3.0.13-r0', '1.1.1w-r1'], state: 'FIXED' });
    assert.match(v?.description ?? '', /^openssl: Generating excessively long X9\.42 DH keys/);
    assert.equal(v?.severity, 'LOW');
  });

  it('maps every Status: affected, fix_deferred, under_investigation → NOT_FIXED; will_not_fix, end_of_life → WONT_FIX', () => {
    const states = Object.fromEntries(
      ['CVE-2022-0002', 'CVE-2022-0003', 'CVE-2022-0004', 'CVE-2022-0005', 'CVE-2022-0006'].map((id) => [id, byId.get(id)?.fix.state]),
    );
    assert.deepEqual(states, {
      'CVE-2022-0002': 'WONT_FIX',
      'CVE-2022-0003': 'NOT_FIXED',
      'CVE-2022-0004': 'WONT_FIX',
      'CVE-2022-0005': 'NOT_FIXED',
      'CVE-2022-0006': 'NOT_FIXED',
    });
    assert.equal(byId.get('CVE-2022-0004')?.severity, 'UNKNOWN');
  });

  it('maps a language package: VendorIDs as aliases, PkgPath as location, CVSS 4.0, the result Type', () => {
    const v = byId.get('CVE-2024-29415');
    assert.deepEqual(v?.aliases, ['GHSA-2p57-rm9w-gvfp']);
    assert.deepEqual(v?.locations, ['usr/local/lib/node_modules/npm/node_modules/ip/package.json']);
    assert.deepEqual(v?.cvss, [
      { score: '8.1', version: '3.1' },
      { score: '9.3', version: '4.0' },
    ]);
    assert.deepEqual(v?.fix, { versions: [], state: 'NOT_FIXED' });
    assert.deepEqual(v?.package, { name: 'ip', version: '2.0.0', purl: 'pkg:npm/ip@2.0.0', type: 'node-pkg' });
  });

  it('reads a report without Status (before Trivy 0.36): FIXED when it names a fixed version', () => {
    const doc = JSON.parse(trivyBytes.toString());
    for (const r of doc.Results) for (const v of r.Vulnerabilities ?? []) delete v.Status;
    const states = parseTrivyReport(enc(doc)).vulnerabilities.map((v) => v.fix.state);
    assert.equal(states.length, 9);
    assert.deepEqual(new Set(states), new Set(['FIXED', 'UNKNOWN']));
  });

  it('refuses SchemaVersion 1', () => {
    const doc = JSON.parse(trivyBytes.toString());
    doc.SchemaVersion = 1;
    refused(enc(doc), /SchemaVersion/);
  });
});

describe('format detection and wrappers', () => {
  it('tells Grype from Trivy by content', () => {
    assert.equal(parseScannerReport(grypeBytes).scanner.name, 'GRYPE');
    assert.equal(parseScannerReport(trivyBytes).scanner.name, 'TRIVY');
  });

  it('reads a Trivy report inside the cosign-vuln predicate, bare, as an in-toto statement and in a DSSE envelope', () => {
    const predicate = {
      invocation: { parameters: null, uri: '', event_id: '', 'builder.id': '' },
      scanner: { uri: 'pkg:github/aquasecurity/trivy@0.58.1', version: '0.58.1', db: { uri: '', version: '' }, result: JSON.parse(trivyBytes.toString()) },
      metadata: { scanStartedOn: '2021-08-25T12:20:30Z', scanFinishedOn: '2021-08-25T12:20:31Z' },
    };
    const statement = { _type: 'https://in-toto.io/Statement/v0.1', predicateType: COSIGN_VULN_PREDICATE, subject: [], predicate };
    const envelope = { payloadType: 'application/vnd.in-toto+json', payload: enc(statement).toString('base64'), signatures: [] };
    for (const doc of [predicate, statement, envelope]) {
      const r = parseScannerReport(enc(doc));
      assert.equal(r.scanner.name, 'TRIVY');
      assert.equal(r.vulnerabilities.length, 8);
    }
  });

  it('refuses an SBOM, a SARIF log, an array and other JSON with a clear reason', () => {
    refused(enc({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [] }), /neither Grype JSON .* nor Trivy JSON/);
    refused(enc({ spdxVersion: 'SPDX-2.3', packages: [] }), /neither Grype JSON/);
    refused(enc({ version: '2.1.0', runs: [] }), /neither Grype JSON/);
    refused(enc([1, 2]), /must be a JSON object/);
  });
});

describe('hostile input', () => {
  it('refuses invalid JSON, invalid UTF-8, NUL in a string and deep nesting', () => {
    refused(Buffer.from('{"matches": ['), /invalid JSON/);
    refused(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8/);
    refused(enc({ descriptor: { name: 'grype', version: 'a\u0000b' } }), /NUL/);
    refused(Buffer.from(`${'['.repeat(100)}${']'.repeat(100)}`), /nested deeper than 64/);
  });

  it('refuses more than 64 MiB without parsing it', () => {
    refused(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20), /larger than/);
  });

  it('refuses more matches than the bound, and an oversized list inside a match', () => {
    const many = Buffer.from(`{"descriptor":{"name":"grype","timestamp":"2025-01-01T00:00:00Z"},"matches":[${'{},'.repeat(MAX_REPORT_MATCHES)}{}]}`);
    refused(many, /matches: more than 100000 entries/);
    const doc = JSON.parse(grypeBytes.toString());
    doc.matches[0].vulnerability.urls = Array.from({ length: 1001 }, (_, i) => `https://example.com/${i}`);
    refused(enc(doc), /matches\[0\]\.vulnerability\.urls: more than 1000 entries/);
  });

  it('ignores a manifestDigest or RepoDigest that is not a sha256 digest', () => {
    const g = JSON.parse(grypeBytes.toString());
    g.source.target.manifestDigest = '../../etc/passwd';
    assert.equal(parseScannerReport(enc(g)).digest, undefined);
    const t = JSON.parse(trivyBytes.toString());
    t.Metadata.RepoDigests = ['x@sha256:short'];
    assert.equal(parseScannerReport(enc(t)).digest, undefined);
  });
});
