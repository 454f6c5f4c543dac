// matchInventory against advisories imported with the real `berth advisories
// import` (YAML, secdb, OSV) and `import-metadata`: each expected match, the
// version just below and at each fix, dpkg epochs and `~`, OSV SEMVER and
// ECOSYSTEM ranges with introduced/fixed/last_affected, a withdrawn record, a
// false positive suppressing another feed's match, two feeds merged into one
// match, severity from CVSS, and the change log naming exactly the package an
// import changed. SQLite, or PostgreSQL with BERTH_TEST_PG.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { firstStart, syncBuiltinRoles } from '../../src/iam/first-start.js';
import type { ImageOs, InstalledPackage, Inventory } from '../../src/scanning/inventory/inventory.js';
import { matchInventory } from '../../src/scanning/matching/match-inventory.js';
import { inventoryKeys } from '../../src/scanning/matching/package-keys.js';
import type { VulnMatch } from '../../src/scanning/matching/vuln-match.js';
import { openStore, type Store } from '../../src/store/store.js';
import { lastAdvisoryChange, readAdvisoryChanges } from '../../src/vulnerabilities/affected/advisory-changes.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';

const root = mkdtempSync(join(tmpdir(), 'berth-match-'));
const db = { dataDir: join(root, 'data'), databaseUrl: undefined as string | undefined };
let store: Store;

function dbArgs(): string[] {
  return db.databaseUrl ? ['--database', db.databaseUrl] : ['--data', db.dataDir];
}

async function cli(args: string[]): Promise<void> {
  const r = await berthCli([...args, ...dbArgs()]);
  assert.equal(r.code, 0, r.stderr);
}

function write(path: string, content: unknown): string {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
  return full;
}

function yamlAdvisories(pkg: string, advisories: { id: string; alias: string; events: string[] }[]): string {
  const lines = ['schema-version: 2.0.2', 'package:', `  name: ${pkg}`, 'advisories:'];
  for (const a of advisories) {
    lines.push(`  - id: ${a.id}`, '    aliases:', `      - ${a.alias}`, '    events:');
    for (const e of a.events) lines.push(...e.split('\n').map((l, i) => (i === 0 ? `      - ${l}` : `        ${l}`)));
  }
  return `${lines.join('\n')}\n`;
}

const T = 'timestamp: 2024-05-01T00:00:00Z';
const T2 = 'timestamp: 2024-06-01T00:00:00Z';

function osv(id: string, affected: unknown[], extra: Record<string, unknown> = {}) {
  return { schema_version: '1.6.0', id, modified: '2024-06-01T00:00:00Z', published: '2024-05-01T00:00:00Z', affected, ...extra };
}

function pkg(type: InstalledPackage['type'], name: string, version: string, more: Partial<InstalledPackage> = {}): InstalledPackage {
  return { type, name, version, purl: `pkg:${type}/${name}@${version}`, locations: ['/test'], foundBy: 'sbom', ...more };
}

async function match(os: ImageOs | undefined, packages: InstalledPackage[]): Promise<VulnMatch[]> {
  return matchInventory(store.db, { os, packages, skipped: [] });
}

/** "<package name>@<version> <vulnerability> <fix state> <fix versions>" of each match, sorted. */
function summary(matches: VulnMatch[]): string[] {
  return matches.map((m) => `${m.package.name}@${m.package.version} ${m.vulnerabilityId} ${m.fix.state} ${m.fix.versions.join(',')}`.trim()).sort();
}

const WOLFI: ImageOs = { id: 'wolfi' };
const ALPINE: ImageOs = { id: 'alpine', versionId: '3.20.3' };
const DEBIAN: ImageOs = { id: 'debian', versionId: '12', versionCodename: 'bookworm' };

before(async () => {
  db.databaseUrl = await freshDatabase();
  const keys = join(root, 'keys');
  mkdirSync(keys, { recursive: true });
  const first = await openStore(db);
  try {
    await syncBuiltinRoles(first);
    await firstStart(first, 'match.example', keys, 'http://127.0.0.1:0');
  } finally {
    await first.close();
  }

  write(
    'yaml/openssl.advisories.yaml',
    yamlAdvisories('openssl', [
      {
        id: 'CGA-2222-2222-2222',
        alias: 'CVE-2024-0001',
        events: [`${T}\ntype: detection\ndata:\n  type: manual`, `${T2}\ntype: fixed\ndata:\n  fixed-version: 3.3.2-r1`],
      },
      {
        id: 'CGA-3333-3333-3333',
        alias: 'CVE-2024-0002',
        events: [`${T}\ntype: false-positive-determination\ndata:\n  type: vulnerable-code-not-included-in-package`],
      },
      { id: 'CGA-4444-4444-4444', alias: 'CVE-2024-0003', events: [`${T}\ntype: fix-not-planned\ndata:\n  note: upstream abandoned the branch`] },
      { id: 'CGA-5555-5555-5555', alias: 'CVE-2024-0004', events: [`${T}\ntype: pending-upstream-fix\ndata:\n  note: waiting for a release`] },
      {
        id: 'CGA-6666-6666-6666',
        alias: 'CVE-2024-0020',
        events: [`${T}\ntype: false-positive-determination\ndata:\n  type: component-vulnerability-mismatch`],
      },
    ]),
  );
  await cli(['advisories', 'import', join(root, 'yaml'), '--format', 'yaml', '--namespace', 'wolfi']);

  // Wolfi's secdb: the same CVE-2024-0001 fix under a minted id (merged with the YAML one), and a fix for the
  // CVE the YAML calls a false positive (suppressed).
  write('secdb-wolfi/security.json', {
    apkurl: '{{urlprefix}}/{{reponame}}/{{arch}}/{{pkg.name}}-{{pkg.ver}}.apk',
    archs: ['x86_64'],
    reponame: 'os',
    urlprefix: 'https://packages.wolfi.dev',
    packages: [{ pkg: { name: 'openssl', secfixes: { '3.3.2-r1': ['CVE-2024-0001'], '3.3.5-r0': ['CVE-2024-0020'] } } }],
  });
  await cli(['advisories', 'import', join(root, 'secdb-wolfi'), '--format', 'secdb', '--namespace', 'wolfi']);

  write('secdb-alpine/main.json', {
    archs: ['x86_64'],
    reponame: 'main',
    packages: [{ pkg: { name: 'busybox', secfixes: { '1.36.1-r2': ['CVE-2024-0010'], '0': ['CVE-2024-0011'] } } }],
  });
  await cli(['advisories', 'import', join(root, 'secdb-alpine'), '--format', 'secdb', '--namespace', 'alpine']);

  const cvss98 = [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }];
  const records = {
    'lodash.json': osv(
      'GHSA-35jh-r3h4-6jhm',
      [{ package: { ecosystem: 'npm', name: 'lodash' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }] }],
      {
        aliases: ['CVE-2021-23337'],
        summary: 'Command injection in lodash',
        severity: cvss98,
        references: [{ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-23337' }],
      },
    ),
    'django.json': osv(
      'PYSEC-2023-0001',
      [
        {
          package: { ecosystem: 'PyPI', name: 'Django' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '4.2' }, { fixed: '4.2.8' }, { introduced: '5.0' }, { fixed: '5.0.1' }] }],
        },
      ],
      { aliases: ['CVE-2023-0101'] },
    ),
    'go.json': osv('GO-2024-0001', [
      {
        package: { ecosystem: 'Go', name: 'github.com/example/mod' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '1.2.0' }, { last_affected: '1.4.0' }] }],
      },
    ]),
    'maven.json': osv('GHSA-mvqx-2222-3333', [
      { package: { ecosystem: 'Maven', name: 'org.example:lib' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0.0-rc1' }] }] },
    ]),
    'glibc.json': osv(
      'DSA-0001-1',
      [{ package: { ecosystem: 'Debian:12', name: 'glibc' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.36-9+deb12u4' }] }] }],
      {
        aliases: ['CVE-2023-4911'],
      },
    ),
    'tar.json': osv(
      'DSA-0002-1',
      [
        {
          package: { ecosystem: 'Debian:12', name: 'tar' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1:1.34+dfsg-1.2+deb12u1' }] }],
        },
      ],
      { aliases: ['CVE-2022-48303'] },
    ),
    'curl.json': osv(
      'DSA-0003-1',
      [{ package: { ecosystem: 'Debian:12', name: 'curl' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '8.0~rc1-1' }] }] }],
      {
        aliases: ['CVE-2023-0002'],
      },
    ),
    'minimist.json': osv('GHSA-vh95-rmgr-6w4m', [{ package: { ecosystem: 'npm', name: 'minimist' }, versions: ['1.2.0', '1.2.5'] }], {
      aliases: ['CVE-2021-44906'],
    }),
    'left-pad.json': osv(
      'GHSA-left-pad0-0001',
      [{ package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }],
      {
        withdrawn: '2024-06-02T00:00:00Z',
      },
    ),
  };
  for (const [name, record] of Object.entries(records)) write(`osv/${name}`, record);
  await cli(['advisories', 'import', join(root, 'osv'), '--format', 'osv']);
  await cli(['advisories', 'import-metadata', join(root, 'osv')]);
  store = await openStore(db);
});

after(async () => {
  await store?.close();
  await dropDatabase(db.databaseUrl);
  rmSync(root, { recursive: true, force: true });
});

describe('matchInventory', () => {
  it('matches Wolfi apk packages by their advisory YAML: fixed below the fix, won’t fix, no fix; a false positive matches nothing', async () => {
    const below = await match(WOLFI, [pkg('apk', 'libssl3', '3.3.2-r0', { source: { name: 'openssl' } })]);
    assert.deepEqual(summary(below), [
      'libssl3@3.3.2-r0 CVE-2024-0001 fixed 3.3.2-r1',
      'libssl3@3.3.2-r0 CVE-2024-0003 wont-fix',
      'libssl3@3.3.2-r0 CVE-2024-0004 not-fixed',
    ]);
    const at = await match(WOLFI, [pkg('apk', 'openssl', '3.3.2-r1')]);
    assert.deepEqual(summary(at), ['openssl@3.3.2-r1 CVE-2024-0003 wont-fix', 'openssl@3.3.2-r1 CVE-2024-0004 not-fixed']);
  });

  it('merges what two feeds say of one vulnerability into one match, the YAML winning, and lets a false positive suppress another feed', async () => {
    const [m, ...rest] = (await match(WOLFI, [pkg('apk', 'openssl', '3.3.1-r0')])).filter((x) => x.vulnerabilityId === 'CVE-2024-0001');
    assert.equal(rest.length, 0);
    assert.equal(m.source, 'yaml');
    assert.equal(m.advisoryId, 'CGA-2222-2222-2222');
    assert.ok(m.aliases.includes('CGA-2222-2222-2222'));
    assert.equal(m.ecosystem, 'apk:wolfi');
    // secdb says CVE-2024-0020 is fixed in 3.3.5-r0; the YAML says it never applied.
    const all = await match(WOLFI, [pkg('apk', 'openssl', '3.3.1-r0')]);
    assert.ok(!all.some((x) => x.vulnerabilityId === 'CVE-2024-0020' || x.vulnerabilityId === 'CVE-2024-0002'));
  });

  it("matches Alpine's secdb only for Alpine images, below the fix, never for a `0` (not affected) entry", async () => {
    assert.deepEqual(summary(await match(ALPINE, [pkg('apk', 'busybox', '1.36.1-r1')])), ['busybox@1.36.1-r1 CVE-2024-0010 fixed 1.36.1-r2']);
    assert.deepEqual(summary(await match(ALPINE, [pkg('apk', 'busybox', '1.36.1-r2')])), []);
    assert.deepEqual(summary(await match(WOLFI, [pkg('apk', 'busybox', '1.36.1-r1')])), []);
    // Wolfi's advisories are not Alpine's.
    assert.deepEqual(summary(await match(ALPINE, [pkg('apk', 'openssl', '3.3.1-r0')])), []);
  });

  it('matches npm SEMVER ranges, with severity from the CVSS vector and the description and URLs of the metadata', async () => {
    const [m, ...rest] = await match(undefined, [pkg('npm', 'lodash', '4.17.20')]);
    assert.equal(rest.length, 0);
    assert.equal(m.vulnerabilityId, 'CVE-2021-23337');
    assert.deepEqual(
      m.aliases.filter((a) => !a.startsWith('CGA-')),
      ['GHSA-35jh-r3h4-6jhm'],
    );
    assert.equal(m.source, 'osv');
    assert.deepEqual(m.fix, { state: 'fixed', versions: ['4.17.21'] });
    assert.equal(m.severity, 'CRITICAL');
    assert.deepEqual(
      m.cvss.map((c) => [c.version, c.score]),
      [['3.1', 9.8]],
    );
    assert.equal(m.description, 'Command injection in lodash');
    assert.deepEqual(m.urls, ['https://nvd.nist.gov/vuln/detail/CVE-2021-23337']);
    assert.deepEqual(await match(undefined, [pkg('npm', 'lodash', '4.17.21')]), []);
  });

  it('evaluates ECOSYSTEM ranges with two introduced/fixed pairs under PEP 440, by the PEP 503 name', async () => {
    const packages = ['4.1.9', '4.2', '4.2.7', '4.2.8', '5.0rc1', '5.0.0', '5.0.1'].map((v) => pkg('pypi', 'django', v));
    assert.deepEqual(summary(await match(undefined, packages)), [
      'django@4.2 CVE-2023-0101 fixed 4.2.8',
      'django@4.2.7 CVE-2023-0101 fixed 4.2.8',
      'django@5.0.0 CVE-2023-0101 fixed 5.0.1',
    ]);
  });

  it('treats last_affected as inclusive, with an unknown fix, for Go modules with or without the v', async () => {
    const packages = ['v1.1.9', 'v1.2.0', 'v1.4.0', 'v1.4.1'].map((v) => pkg('golang', 'mod', v, { namespace: 'github.com/example' }));
    assert.deepEqual(summary(await match(undefined, packages)), ['mod@v1.2.0 GO-2024-0001 unknown', 'mod@v1.4.0 GO-2024-0001 unknown']);
  });

  it('orders Maven qualifiers: a beta is below the rc that fixed it, the release is not', async () => {
    const packages = ['2.0.0-beta1', '2.0.0-rc1', '2.0.0'].map((v) => pkg('maven', 'lib', v, { namespace: 'org.example' }));
    assert.deepEqual(summary(await match(undefined, packages)), ['lib@2.0.0-beta1 GHSA-mvqx-2222-3333 fixed 2.0.0-rc1']);
  });

  it('matches Debian packages by source name and version, with epochs and ~', async () => {
    const libc = (v: string) => pkg('deb', 'libc6', v, { source: { name: 'glibc', version: v } });
    assert.deepEqual(summary(await match(DEBIAN, [libc('2.36-9+deb12u3'), libc('2.36-9+deb12u4'), libc('2.36-9+deb12u10')])), [
      'libc6@2.36-9+deb12u3 CVE-2023-4911 fixed 2.36-9+deb12u4',
    ]);
    // No epoch is epoch 0: 1.35 is below 1:1.34.
    const tar = (v: string) => pkg('deb', 'tar', v);
    assert.deepEqual(summary(await match(DEBIAN, [tar('1.35+dfsg-1'), tar('1:1.34+dfsg-1.2+deb12u1'), tar('1:1.35+dfsg-1')])), [
      'tar@1.35+dfsg-1 CVE-2022-48303 fixed 1:1.34+dfsg-1.2+deb12u1',
    ]);
    // ~ sorts before the release: a beta is below rc1, 8.0 is not.
    const curl = (v: string) => pkg('deb', 'curl', v);
    assert.deepEqual(summary(await match(DEBIAN, [curl('8.0~beta1-1'), curl('8.0~rc1-1'), curl('8.0-1')])), ['curl@8.0~beta1-1 CVE-2023-0002 fixed 8.0~rc1-1']);
    // Another release's advisories do not apply.
    assert.deepEqual(await match({ id: 'debian', versionId: '11' }, [libc('2.36-9+deb12u3')]), []);
  });

  it('matches listed versions exactly (a fix unknown); a withdrawn record matches nothing', async () => {
    const mini = ['1.2.0', '1.2.1', '1.2.5'].map((v) => pkg('npm', 'minimist', v));
    assert.deepEqual(summary(await match(undefined, mini)), ['minimist@1.2.0 CVE-2021-44906 unknown', 'minimist@1.2.5 CVE-2021-44906 unknown']);
    assert.deepEqual(await match(undefined, [pkg('npm', 'left-pad', '1.0.0')]), []);
  });

  it('matches nothing for versions its scheme cannot read, and does not throw on hostile ones', async () => {
    const hostile = ['', 'not a version', `4.17.${'9'.repeat(300)}`, '4.17.20\u0000'].map((v) => pkg('npm', 'lodash', v));
    assert.deepEqual(await match(undefined, hostile), []);
    const names = ['', 'x'.repeat(100_000), 'lodash\u0000'].map((n) => pkg('npm', n, '4.17.20'));
    assert.deepEqual(await match(undefined, names), []);
  });

  it('returns the package with its index into inventory.packages', async () => {
    const packages = [pkg('npm', 'left-pad', '1.0.0'), pkg('npm', 'lodash', '4.0.0')];
    const [m] = await match(undefined, packages);
    assert.equal(m.packageIndex, 1);
    assert.equal(m.package, packages[1]);
  });
});

describe('advisory changes', () => {
  it('an import that changes one package’s advisories records exactly that key, and re-matching sees the change', async () => {
    const cursor = await lastAdvisoryChange(store.db);
    write(
      'yaml/openssl.advisories.yaml',
      yamlAdvisories('openssl', [
        {
          id: 'CGA-2222-2222-2222',
          alias: 'CVE-2024-0001',
          events: [
            `${T}\ntype: detection\ndata:\n  type: manual`,
            `${T2}\ntype: fixed\ndata:\n  fixed-version: 3.3.2-r1`,
            'timestamp: 2024-07-01T00:00:00Z\ntype: fixed\ndata:\n  fixed-version: 3.3.2-r3',
          ],
        },
        {
          id: 'CGA-3333-3333-3333',
          alias: 'CVE-2024-0002',
          events: [`${T}\ntype: false-positive-determination\ndata:\n  type: vulnerable-code-not-included-in-package`],
        },
        { id: 'CGA-4444-4444-4444', alias: 'CVE-2024-0003', events: [`${T}\ntype: fix-not-planned\ndata:\n  note: upstream abandoned the branch`] },
        { id: 'CGA-5555-5555-5555', alias: 'CVE-2024-0004', events: [`${T}\ntype: pending-upstream-fix\ndata:\n  note: waiting for a release`] },
        {
          id: 'CGA-6666-6666-6666',
          alias: 'CVE-2024-0020',
          events: [`${T}\ntype: false-positive-determination\ndata:\n  type: component-vulnerability-mismatch`],
        },
      ]),
    );
    await cli(['advisories', 'import', join(root, 'yaml'), '--format', 'yaml', '--namespace', 'wolfi']);
    const changes = await readAdvisoryChanges(store.db, cursor);
    assert.deepEqual(
      changes.map((c) => [c.ecosystem, c.package]),
      [['apk:wolfi', 'openssl']],
    );
    assert.ok(changes[0].id > cursor);
    const inventory: Inventory = { os: WOLFI, packages: [pkg('apk', 'openssl', '3.3.2-r2')], skipped: [] };
    assert.ok(inventoryKeys(inventory).some((k) => k.ecosystem === 'apk:wolfi' && k.package === 'openssl'));
    const m = (await matchInventory(store.db, inventory)).find((x) => x.vulnerabilityId === 'CVE-2024-0001');
    assert.deepEqual(m?.fix, { state: 'fixed', versions: ['3.3.2-r3'] });
  });

  it('an import that changes nothing records nothing', async () => {
    const cursor = await lastAdvisoryChange(store.db);
    await cli(['advisories', 'import', join(root, 'osv'), '--format', 'osv', '--force']);
    assert.deepEqual(await readAdvisoryChanges(store.db, cursor), []);
  });

  it('withdrawing a record that matched stops its matches and records its key', async () => {
    const mini = [pkg('npm', 'minimist', '1.2.0')];
    assert.equal((await match(undefined, mini)).length, 1);
    const cursor = await lastAdvisoryChange(store.db);
    write(
      'osv/minimist.json',
      osv('GHSA-vh95-rmgr-6w4m', [{ package: { ecosystem: 'npm', name: 'minimist' }, versions: ['1.2.0', '1.2.5'] }], {
        aliases: ['CVE-2021-44906'],
        withdrawn: '2024-07-01T00:00:00Z',
      }),
    );
    await cli(['advisories', 'import', join(root, 'osv'), '--format', 'osv']);
    assert.deepEqual(await match(undefined, mini), []);
    assert.deepEqual(
      (await readAdvisoryChanges(store.db, cursor)).map((c) => [c.ecosystem, c.package]),
      [['npm', 'minimist']],
    );
  });
});
