// A tiny, hand-written advisory feed for the feed's tests and golden files:
// every case the documents endpoint must get right, small enough to check by
// eye. "age" has one CGA id on three rows (two architectures, a subpackage)
// whose approved events overlap, plus pending, rejected and patched events
// that must not show; "curl" has an advisory with no approved event at all.
// OUTSIDE is an operator's own advisory on the same package and alias,
// created through the API (in the organization, and in an ordinary group):
// the public feed must never show it.
import type { NormalizedAdvisory, NormalizedEvent } from '../../src/vulnerabilities/import/normalized-advisory.js';
import type { MetadataSeed } from './advisory-seed.js';

type EventInit = Pick<NormalizedEvent, 'time' | 'kind' | 'payload'> & Partial<NormalizedEvent>;

const ev = (e: EventInit): NormalizedEvent => ({ author: 'import:yaml', reviewer: '', reviewState: 'REVIEW_STATE_APPROVED', ...e });

const row = (a: Partial<NormalizedAdvisory> & Pick<NormalizedAdvisory, 'origin' | 'advisoryId' | 'aliases' | 'events'>): NormalizedAdvisory => ({
  packageNamespace: 'wolfi',
  artifactName: a.origin,
  artifactType: 'apk',
  artifactArchitecture: 'x86_64',
  componentName: a.origin,
  componentType: 'apk',
  componentLocation: './PKGINFO',
  author: 'import:yaml',
  ...a,
});

export const AGE_1 = 'CGA-2345-6789-cfgh';
export const AGE_2 = 'CGA-jmpq-rvwx-2345';
export const CURL_1 = 'CGA-c2c2-f3f3-g4g4';
export const CURL_PENDING = 'CGA-h5h5-j6j6-m7m7';
export const OUTSIDE_ID = 'CGA-p8p8-q9q9-r2r2';

const ageDetection = ev({
  time: '2024-03-01T10:00:00.000Z',
  kind: 'detection',
  payload: {
    scanv1: {
      scanner: 'grype',
      subpackage: 'age',
      componentId: '02c890e439f7e6b4',
      component: 'stdlib',
      componentVersion: 'go1.22.5',
      componentType: 'go-module',
      componentLocation: '/usr/bin/age',
    },
  },
});
const ageUtilsDetection = ev({
  time: '2024-03-01T10:05:00.000Z',
  kind: 'detection',
  payload: {
    scanv1: {
      scanner: 'grype',
      subpackage: 'age-utils',
      component: 'stdlib',
      componentVersion: 'go1.22.5',
      componentType: 'go-module',
      componentLocation: '/usr/bin/age-keygen',
    },
  },
});
const ageFixed = ev({ time: '2024-03-05T08:30:00.000Z', kind: 'fixed', payload: { fixedVersion: '1.2.0-r2', note: 'not in the feed' } });
const agePending = ev({
  time: '2024-03-02T00:00:00.000Z',
  kind: 'true-positive-determination',
  payload: { note: 'pending' },
  author: 'alice@example.com',
  reviewState: 'REVIEW_STATE_PENDING',
});
const agePatched = ev({ time: '2024-03-06T00:00:00.000Z', kind: 'patched', payload: { patchedVersions: ['1.2.0-r3'] } });

export const FEED: NormalizedAdvisory[] = [
  row({
    origin: 'age',
    advisoryId: AGE_1,
    aliases: ['CVE-2024-10001', 'GHSA-2345-6789-cfgh'],
    componentName: 'stdlib',
    componentType: 'go-module',
    componentLocation: '/usr/bin/age',
    events: [ageDetection, agePending, ageFixed, agePatched],
  }),
  row({
    origin: 'age',
    advisoryId: AGE_1,
    aliases: ['CVE-2024-10001', 'GHSA-2345-6789-cfgh'],
    artifactArchitecture: 'aarch64',
    componentName: 'stdlib',
    componentType: 'go-module',
    componentLocation: '/usr/bin/age',
    events: [ageDetection, ageFixed],
  }),
  row({
    origin: 'age',
    advisoryId: AGE_1,
    aliases: ['CVE-2024-10001', 'GO-2024-3001'],
    artifactName: 'age-utils',
    componentName: 'stdlib',
    componentType: 'go-module',
    componentLocation: '/usr/bin/age-keygen',
    events: [ageUtilsDetection, ageFixed],
  }),
  row({
    origin: 'age',
    advisoryId: AGE_2,
    aliases: ['CVE-2024-10002'],
    events: [
      ev({ time: '2024-01-10T00:00:00.000Z', kind: 'detection', payload: { manual: {} } }),
      ev({
        time: '2024-01-12T00:00:00.000Z',
        kind: 'false-positive-determination',
        payload: { type: 'TYPE_COMPONENT_VULNERABILITY_MISMATCH', note: 'not shipped' },
      }),
      ev({ time: '2024-01-11T00:00:00.000Z', kind: 'analysis-not-planned', payload: { note: 'later' } }),
      ev({
        time: '2024-01-13T00:00:00.000Z',
        kind: 'fixed',
        payload: { fixedVersion: '9.9.9-r0' },
        reviewer: 'bob@example.com',
        reviewState: 'REVIEW_STATE_REJECTED',
      }),
    ],
  }),
  row({
    origin: 'curl',
    packageNamespace: 'chainguard',
    advisoryId: CURL_1,
    aliases: ['CVE-2024-20001'],
    events: [
      ev({
        time: '2024-02-01T00:00:00.000Z',
        kind: 'detection',
        payload: { nvdapi: { cpeSearched: 'cpe:2.3:a:haxx:curl:*', cpeFound: 'cpe:2.3:a:haxx:curl:8.5.0' } },
      }),
      ev({ time: '2024-02-02T00:00:00.000Z', kind: 'true-positive-determination', payload: { note: 'reachable' } }),
      ev({ time: '2024-02-03T00:00:00.000Z', kind: 'pending-upstream-fix', payload: { note: 'upstream PR open' } }),
      ev({ time: '2024-02-04T00:00:00.000Z', kind: 'fix-not-planned', payload: { note: 'EOL branch' } }),
    ],
  }),
  row({
    origin: 'curl',
    packageNamespace: 'chainguard',
    advisoryId: CURL_PENDING,
    aliases: ['CVE-2024-20002'],
    events: [
      ev({ time: '2024-02-05T00:00:00.000Z', kind: 'detection', payload: { manual: {} }, author: 'alice@example.com', reviewState: 'REVIEW_STATE_PENDING' }),
    ],
  }),
];

/** An operator's advisory, created through the API: same package and alias as the feed's. */
export const OUTSIDE: NormalizedAdvisory[] = [
  row({
    origin: 'age',
    advisoryId: OUTSIDE_ID,
    aliases: ['CVE-2024-10001', 'CVE-2024-99999'],
    author: 'api',
    events: [ev({ time: '2024-04-01T00:00:00.000Z', kind: 'detection', payload: { manual: {} }, author: 'alice@example.com' })],
  }),
];

export const METADATA: MetadataSeed[] = [
  {
    id: 'CVE-2024-10001',
    summary: 'net/http: request smuggling',
    details: 'A long description.\nSecond line.',
    references: [
      { type: 'TYPE_ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2024-10001' },
      { type: 'TYPE_WEB', url: 'https://go.dev/issue/1' },
    ],
    severities: [{ type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }],
    modified: '2024-03-01T00:00:00.000Z',
  },
  {
    id: 'GHSA-2345-6789-cfgh',
    summary: 'age: header parsing',
    details: '',
    references: [{ type: 'TYPE_FIX', url: 'https://github.com/FiloSottile/age/commit/abc' }],
    severities: [
      { type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N' },
      { type: 'TYPE_CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N' },
    ],
    modified: '2024-03-02T00:00:00.000Z',
  },
  { id: 'GO-2024-3001', summary: 'stdlib: smuggling', details: 'Go advisory.', references: [], severities: [], modified: '2024-03-03T00:00:00.000Z' },
];
