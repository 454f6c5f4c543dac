// The OSV, secdb and OpenVEX parsers on small hand-written inputs: what each
// field becomes, and every refused input named by file (and line where JSON
// syntax gives one). Files, directories and zip archives through the same
// readers the import uses.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mintAdvisoryId } from '../../src/vulnerabilities/advisory-ids.js';
import { ImportError, type ParsedFile } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { parseOpenVexBytes, readOpenVexAdvisories } from '../../src/vulnerabilities/import/openvex-advisories.js';
import { parseOsvBytes, readOsvAdvisories } from '../../src/vulnerabilities/import/osv-advisories.js';
import { parseSecdbBytes, SECDB_EVENT_TIME } from '../../src/vulnerabilities/import/secdb-advisories.js';
import { writeZip } from '../harness/zip-writer.js';

const opts = { arch: ['x86_64', 'aarch64'], namespace: '' };
const bytes = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const dir = mkdtempSync(join(tmpdir(), 'berth-adv-formats-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function refused(run: () => unknown, file: string, line: number, message: RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ImportError, String(err));
    assert.equal(err.file, file);
    assert.equal(err.line, line);
    assert.match(err.message, message);
    return true;
  });
}

async function collect(it: AsyncIterable<ParsedFile>): Promise<ParsedFile[]> {
  const out: ParsedFile[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function rejects(it: AsyncIterable<ParsedFile>, file: string, message: RegExp): Promise<void> {
  await assert.rejects(collect(it), (err: unknown) => {
    assert.ok(err instanceof ImportError, String(err));
    assert.equal(err.file, file);
    assert.equal(err.line, 0);
    assert.match(err.message, message);
    return true;
  });
}

const CGA = 'CGA-2345-6789-cfgh';
const wolfiRecord = {
  schema_version: '1.6.0',
  id: CGA,
  modified: '2024-09-18T16:07:19Z',
  published: '2024-09-10T20:20:24Z',
  aliases: ['GHSA-8xfx-rj4p-23jm', 'XSA-1'],
  related: ['CVE-2024-34155', { type: 'ALIAS', id: 'GO-2024-3105' }, CGA],
  affected: [
    {
      package: { ecosystem: 'Wolfi', name: 'age', purl: 'pkg:apk/wolfi/age?arch=x86_64' },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.2.0-r2' }] }],
    },
    { package: { ecosystem: 'Wolfi', name: 'age-doc' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.2.0-r2' }] }] },
  ],
};

describe('OSV records', () => {
  it('maps a Wolfi record: CGA id, aliases and related without self or foreign ids, a row per package and arch, fixed at modified', () => {
    const { advisories } = parseOsvBytes('a.json', bytes(wolfiRecord), opts);
    assert.deepEqual(
      advisories.map((a) => [
        a.advisoryId,
        a.artifactName,
        a.artifactType,
        a.artifactArchitecture,
        a.origin,
        a.componentName,
        a.componentLocation,
        a.packageNamespace,
      ]),
      [
        [CGA, 'age', 'apk', 'x86_64', 'age', 'age', './PKGINFO', 'wolfi'],
        [CGA, 'age-doc', 'apk', 'x86_64', 'age', 'age-doc', './PKGINFO', ''],
        [CGA, 'age-doc', 'apk', 'aarch64', 'age', 'age-doc', './PKGINFO', ''],
      ],
    );
    assert.deepEqual(advisories[0].aliases, ['CVE-2024-34155', 'GHSA-8xfx-rj4p-23jm', 'GO-2024-3105']);
    assert.deepEqual(advisories[0].events, [
      {
        time: '2024-09-18T16:07:19.000Z',
        kind: 'fixed',
        payload: { fixedVersion: '1.2.0-r2' },
        author: 'import:osv',
        reviewer: '',
        reviewState: 'REVIEW_STATE_APPROVED',
      },
    ]);
    assert.equal(advisories[0].author, 'import:osv');
  });

  it('reads fixed "0" as a false positive, an unfixed range as a manual detection at published, and the origin from database_specific', () => {
    const record = {
      id: 'GHSA-8xfx-rj4p-23jm',
      modified: '2024-09-18T16:07:19Z',
      published: '2024-09-10T20:20:24+02:00',
      aliases: ['CVE-2024-34155'],
      affected: [
        { package: { ecosystem: 'PyPI', name: 'requests', purl: 'pkg:pypi/requests' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }] },
        {
          package: { ecosystem: 'Wolfi', name: 'py3-requests' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0' }], database_specific: { false_positive: true } }],
          database_specific: { origin: 'py3-requests-origin' },
        },
        { package: { ecosystem: 'Wolfi', name: 'git-thing' }, ranges: [{ type: 'GIT', repo: 'https://x', events: [{ introduced: '0' }, { fixed: 'abc' }] }] },
      ],
    };
    const { advisories } = parseOsvBytes('b.json', bytes(record), { arch: ['x86_64'], namespace: 'chainguard' });
    const requests = advisories.find((a) => a.artifactName === 'requests');
    assert.equal(requests?.advisoryId, mintAdvisoryId(['osv', 'GHSA-8xfx-rj4p-23jm', 'requests']));
    assert.deepEqual(requests?.aliases, ['CVE-2024-34155', 'GHSA-8xfx-rj4p-23jm']);
    assert.equal(requests?.artifactType, 'library');
    assert.equal(requests?.origin, 'py3-requests-origin');
    assert.equal(requests?.packageNamespace, 'chainguard');
    assert.deepEqual(
      requests?.events.map((e) => [e.time, e.kind, e.payload]),
      [['2024-09-10T18:20:24.000Z', 'detection', { manual: {} }]],
    );
    const fp = advisories.find((a) => a.artifactName === 'py3-requests');
    assert.deepEqual(
      fp?.events.map((e) => [e.time, e.kind, e.payload]),
      [['2024-09-18T16:07:19.000Z', 'false-positive-determination', {}]],
    );
    const git = advisories.find((a) => a.artifactName === 'git-thing');
    assert.equal(git?.events[0].kind, 'detection', 'a GIT range fixes no package version');
  });

  it('skips withdrawn records and records without affected packages', () => {
    assert.deepEqual(parseOsvBytes('w.json', bytes({ ...wolfiRecord, withdrawn: '2024-10-01T00:00:00Z' }), opts).advisories, []);
    assert.deepEqual(parseOsvBytes('n.json', bytes({ id: 'CVE-2024-1111', modified: '2024-10-01T00:00:00Z' }), opts).advisories, []);
  });

  it('refuses bad input with file and line', () => {
    refused(() => parseOsvBytes('s.json', bytes('{\n  "id": "x",\n  "modified": oops\n}'), opts), 's.json', 3, /invalid JSON/);
    refused(() => parseOsvBytes('u.json', Buffer.from([0x7b, 0xff, 0x7d]), opts), 'u.json', 0, /UTF-8/);
    refused(() => parseOsvBytes('z.json', bytes({ ...wolfiRecord, summary: 'a\u0000b' }), opts), 'z.json', 0, /NUL/);
    refused(() => parseOsvBytes('k.json', bytes({ ...wolfiRecord, ['a\u0000']: 1 }), opts), 'k.json', 0, /NUL/);
    refused(() => parseOsvBytes('d.json', bytes(`${'['.repeat(100)}${']'.repeat(100)}`), opts), 'd.json', 0, /nested deeper/);
    refused(() => parseOsvBytes('i.json', bytes({ ...wolfiRecord, id: 1 }), opts), 'i.json', 0, /^i\.json:0: id: must be a non-empty string/);
    refused(() => parseOsvBytes('m.json', bytes({ ...wolfiRecord, modified: 'yesterday' }), opts), 'm.json', 0, /modified: not an RFC 3339 time/);
    refused(() => parseOsvBytes('a.json', bytes({ ...wolfiRecord, affected: {} }), opts), 'a.json', 0, /affected: must be an array/);
    refused(
      () => parseOsvBytes('p.json', bytes({ ...wolfiRecord, affected: [{ package: { name: 'x', purl: 'npm:x' } }] }), opts),
      'p.json',
      0,
      /not a package URL/,
    );
    refused(() => parseOsvBytes('r.json', bytes({ ...wolfiRecord, related: [{ type: 'X' }] }), opts), 'r.json', 0, /related\[0\]\.id/);
    refused(() => parseOsvBytes('x.json', bytes([1]), opts), 'x.json', 0, /record: must be an object/);
  });

  it('reads a directory in name order and an all.zip entry by entry, named <zip>!<entry>', async () => {
    const d = join(dir, 'osv');
    mkdirSync(join(d, 'sub'), { recursive: true });
    writeFileSync(join(d, 'sub', 'b.json'), bytes({ ...wolfiRecord, id: 'CGA-2345-6789-cfgj' }));
    writeFileSync(join(d, 'a.json'), bytes(wolfiRecord));
    writeFileSync(join(d, 'notes.txt'), 'not json');
    assert.deepEqual(
      (await collect(readOsvAdvisories(d, opts))).map((p) => [p.file, p.advisories[0].advisoryId]),
      [
        [join(d, 'a.json'), CGA],
        [join(d, 'sub', 'b.json'), 'CGA-2345-6789-cfgj'],
      ],
    );
    const zip = join(dir, 'all.zip');
    writeFileSync(
      zip,
      writeZip([
        { name: `${CGA}.json`, data: bytes(wolfiRecord) },
        { name: 'README', data: bytes('x') },
      ]),
    );
    const parsed = await collect(readOsvAdvisories(zip, opts));
    assert.deepEqual(
      parsed.map((p) => [p.file, p.advisories.length]),
      [[`${zip}!${CGA}.json`, 3]],
    );
  });

  it('refuses oversize files, oversize zip entries, too many entries, broken archives and NUL in a zip entry', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 64 * 1024 * 1024 + 1);
    await rejects(readOsvAdvisories(big, opts), big, /file larger than 67108864 bytes/);
    const bomb = join(dir, 'bomb.zip');
    writeFileSync(bomb, writeZip([{ name: 'x.json', data: new Uint8Array(64 * 1024 * 1024 + 1) }]));
    await rejects(readOsvAdvisories(bomb, opts), `${bomb}!x.json`, /zip entry larger than 67108864 bytes uncompressed/);
    const many = join(dir, 'many.zip');
    writeFileSync(many, writeZip([{ name: 'x.json', data: bytes(wolfiRecord) }], { claimEntries: 200_001 }));
    await rejects(readOsvAdvisories(many, opts), many, /more than 200000 entries/);
    const broken = join(dir, 'broken.zip');
    writeFileSync(broken, 'PK not really');
    await rejects(readOsvAdvisories(broken, opts), broken, /not a readable zip archive/);
    const nul = join(dir, 'nul.zip');
    writeFileSync(nul, writeZip([{ name: 'x.json', data: bytes({ ...wolfiRecord, details: '\u0000' }) }]));
    await rejects(readOsvAdvisories(nul, opts), `${nul}!x.json`, /NUL/);
    await rejects(readOsvAdvisories(join(dir, 'missing.json'), opts), join(dir, 'missing.json'), /cannot read: ENOENT/);
  });
});

describe('secdb documents', () => {
  const secdb = {
    apkurl: '{{urlprefix}}/{{reponame}}/{{arch}}/{{pkg.name}}-{{pkg.ver}}.apk',
    archs: ['x86_64', 'aarch64'],
    reponame: 'os',
    urlprefix: 'https://packages.wolfi.dev',
    packages: [
      {
        pkg: {
          name: 'age',
          secfixes: {
            '1.2.0-r2': [CGA, 'CVE-2024-34155', 'GHSA-8xfx-rj4p-23jm', 'CGA-2345-6789-cfgj', 'GO-2024-3105'],
            '0': ['CVE-2023-1111 CVE-2023-2222', 'XSA-9'],
          },
        },
      },
    ],
  };

  it('groups each CGA id with the aliases after it, mints an id per lone alias, "0" is a false positive, a row per arch, a constant time', () => {
    const { advisories } = parseSecdbBytes('security.json', bytes(secdb), { arch: ['ignored'], namespace: 'wolfi' });
    const summary = advisories.map((a) => [
      a.advisoryId,
      a.aliases.join(','),
      a.artifactArchitecture,
      a.events.map((e) => `${e.kind}:${JSON.stringify(e.payload)}`).join(),
    ]);
    const fixed = `fixed:${JSON.stringify({ fixedVersion: '1.2.0-r2' })}`;
    const fp = 'false-positive-determination:{}';
    // JSON objects list integer-like keys first: "0" before the versions.
    assert.deepEqual(summary, [
      [mintAdvisoryId(['secdb', 'age', 'CVE-2023-1111']), 'CVE-2023-1111', 'x86_64', fp],
      [mintAdvisoryId(['secdb', 'age', 'CVE-2023-1111']), 'CVE-2023-1111', 'aarch64', fp],
      [mintAdvisoryId(['secdb', 'age', 'CVE-2023-2222']), 'CVE-2023-2222', 'x86_64', fp],
      [mintAdvisoryId(['secdb', 'age', 'CVE-2023-2222']), 'CVE-2023-2222', 'aarch64', fp],
      [CGA, 'CVE-2024-34155,GHSA-8xfx-rj4p-23jm', 'x86_64', fixed],
      [CGA, 'CVE-2024-34155,GHSA-8xfx-rj4p-23jm', 'aarch64', fixed],
      ['CGA-2345-6789-cfgj', 'GO-2024-3105', 'x86_64', fixed],
      ['CGA-2345-6789-cfgj', 'GO-2024-3105', 'aarch64', fixed],
    ]);
    for (const a of advisories) {
      assert.equal(a.events[0].time, SECDB_EVENT_TIME);
      assert.deepEqual(
        [a.origin, a.artifactName, a.artifactType, a.componentName, a.componentType, a.packageNamespace],
        ['age', 'age', 'apk', 'age', 'apk', 'wolfi'],
      );
    }
  });

  it('uses --arch when the document lists no archs', () => {
    const { advisories } = parseSecdbBytes('s.json', bytes({ ...secdb, archs: [] }), { arch: ['riscv64'], namespace: '' });
    assert.deepEqual([...new Set(advisories.map((a) => a.artifactArchitecture))], ['riscv64']);
  });

  it('refuses bad shapes', () => {
    refused(() => parseSecdbBytes('s.json', bytes({ ...secdb, packages: 1 }), opts), 's.json', 0, /packages: must be an array/);
    refused(() => parseSecdbBytes('s.json', bytes({ packages: [{ pkg: { name: '' } }] }), opts), 's.json', 0, /packages\[0\]\.pkg\.name/);
    refused(
      () => parseSecdbBytes('s.json', bytes({ packages: [{ pkg: { name: 'a', secfixes: { '1 2': [] } } }] }), opts),
      's.json',
      0,
      /not a package version/,
    );
    refused(
      () => parseSecdbBytes('s.json', bytes({ packages: [{ pkg: { name: 'a', secfixes: { '1': [3] } } }] }), opts),
      's.json',
      0,
      /must be a non-empty string/,
    );
    refused(() => parseSecdbBytes('s.json', bytes({ packages: [{ pkg: { name: 'a\u0000' } }] }), opts), 's.json', 0, /NUL/);
  });
});

describe('OpenVEX documents', () => {
  const vex = {
    '@context': 'https://openvex.dev/ns/v0.2.0',
    '@id': 'https://example.test/vex/1',
    author: 'someone',
    timestamp: '2024-05-01T10:00:00Z',
    version: 1,
    statements: [
      {
        vulnerability: { name: 'CVE-2024-34155', aliases: ['GHSA-8xfx-rj4p-23jm'] },
        products: [{ '@id': 'pkg:pypi/requests@2.32.0' }],
        status: 'fixed',
      },
      {
        vulnerability: { name: CGA, aliases: ['CVE-2024-1111'] },
        timestamp: '2024-06-01T10:00:00Z',
        products: [
          {
            '@id': 'pkg:apk/wolfi/age@1.2.0-r1?arch=aarch64',
            subcomponents: [{ '@id': 'pkg:golang/golang.org%2Fx%2Fnet#usr/bin/age' }],
          },
        ],
        status: 'not_affected',
        justification: 'vulnerable_code_not_present',
        impact_statement: 'the code is gone',
      },
      { vulnerability: { name: 'CVE-2024-2222' }, products: ['pkg:apk/wolfi/age'], status: 'affected', action_statement: 'upgrade' },
      { vulnerability: { name: 'CVE-2024-3333' }, products: [{ '@id': 'x', identifiers: { purl: 'pkg:apk/wolfi/age' } }], status: 'under_investigation' },
    ],
  };

  it('maps each status to its event, ids to CGA or minted, products and subcomponents to artifact and component', () => {
    const { advisories } = parseOpenVexBytes('v.json', bytes(vex), { arch: ['x86_64'], namespace: '' });
    const find = (name: string, id: string) => advisories.find((a) => a.artifactName === name && a.advisoryId === id);
    const requests = find('requests', mintAdvisoryId(['openvex', 'CVE-2024-34155', 'requests']));
    assert.deepEqual(requests?.aliases, ['CVE-2024-34155', 'GHSA-8xfx-rj4p-23jm']);
    assert.equal(requests?.artifactType, 'library');
    assert.deepEqual(
      requests?.events.map((e) => [e.time, e.kind, e.payload, e.author]),
      [['2024-05-01T10:00:00.000Z', 'fixed', { fixedVersion: '2.32.0' }, 'import:openvex']],
    );
    const age = find('age', CGA);
    assert.deepEqual(
      [age?.artifactArchitecture, age?.componentName, age?.componentType, age?.componentLocation, age?.packageNamespace, age?.aliases],
      ['aarch64', 'golang.org/x/net', 'go-module', '/usr/bin/age', 'wolfi', ['CVE-2024-1111']],
    );
    assert.deepEqual(
      age?.events.map((e) => [e.time, e.kind, e.payload]),
      [['2024-06-01T10:00:00.000Z', 'false-positive-determination', { type: 'TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE', note: 'the code is gone' }]],
    );
    const tp = find('age', mintAdvisoryId(['openvex', 'CVE-2024-2222', 'age']));
    assert.deepEqual(
      [tp?.componentName, tp?.componentLocation, tp?.events[0].kind, tp?.events[0].payload],
      ['age', './PKGINFO', 'true-positive-determination', { note: 'upgrade' }],
    );
    const ui = find('age', mintAdvisoryId(['openvex', 'CVE-2024-3333', 'age']));
    assert.deepEqual(ui?.events[0].payload, { manual: {} });
  });

  it('refuses what is not OpenVEX or breaks its rules', () => {
    const st = vex.statements[1];
    refused(() => parseOpenVexBytes('v.json', bytes({ ...vex, '@context': 'https://example.test' }), opts), 'v.json', 0, /not an OpenVEX document/);
    refused(() => parseOpenVexBytes('v.json', bytes({ ...vex, statements: [{ ...st, status: 'maybe' }] }), opts), 'v.json', 0, /unknown status maybe/);
    refused(
      () => parseOpenVexBytes('v.json', bytes({ ...vex, statements: [{ ...st, justification: undefined, impact_statement: undefined }] }), opts),
      'v.json',
      0,
      /not_affected needs a justification/,
    );
    refused(
      () => parseOpenVexBytes('v.json', bytes({ ...vex, statements: [{ ...st, justification: 'because' }] }), opts),
      'v.json',
      0,
      /unknown justification/,
    );
    refused(
      () => parseOpenVexBytes('v.json', bytes({ ...vex, statements: [{ ...st, products: [{ '@id': 'sha256:abc' }] }] }), opts),
      'v.json',
      0,
      /not a package URL/,
    );
    refused(() => parseOpenVexBytes('v.json', bytes({ ...vex, statements: [{ ...st, vulnerability: {} }] }), opts), 'v.json', 0, /has no name/);
    refused(() => parseOpenVexBytes('v.json', bytes({ ...vex, timestamp: undefined }), opts), 'v.json', 0, /timestamp/);
  });

  it('reads a directory of documents', async () => {
    const d = join(dir, 'vex');
    mkdirSync(d);
    writeFileSync(join(d, 'age.openvex.json'), bytes(vex));
    assert.equal(
      (await collect(readOpenVexAdvisories(d, opts)))[0].advisories.length,
      7,
      'requests, CVE-2024-2222 and CVE-2024-3333 on both --arch values, age on its purl arch',
    );
  });
});
