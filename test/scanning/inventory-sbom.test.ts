// SBOMs attached to an image: SPDX 2.x JSON and CycloneDX JSON read into
// packages with purls, and merged with what the image's layers hold (one
// package per purl, every location kept).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inventoryLayers } from '../../src/scanning/inventory/inventory-layers.js';
import { inventoryFromSbom, mergeInventories } from '../../src/scanning/inventory/sbom-documents.js';
import { layer } from '../harness/tar-layer.js';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const DIGEST = 'sha256:5b0ba1e0bd1ef8c0fcd1a8bc5a1dcd37d5cf2a4f6fd64ea95f2f5e85e3b8a001';

const SPDX = {
  spdxVersion: 'SPDX-2.3',
  SPDXID: 'SPDXRef-DOCUMENT',
  name: 'alpine',
  packages: [
    { SPDXID: 'SPDXRef-os', name: 'alpine', versionInfo: '3.19.1', primaryPackagePurpose: 'OPERATING-SYSTEM' },
    {
      SPDXID: 'SPDXRef-musl',
      name: 'musl',
      versionInfo: '1.2.4-r2',
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: 'MIT',
      externalRefs: [
        { referenceCategory: 'SECURITY', referenceType: 'cpe23Type', referenceLocator: 'cpe:2.3:a:musl:musl:1.2.4-r2:*:*:*:*:*:*:*' },
        {
          referenceCategory: 'PACKAGE-MANAGER',
          referenceType: 'purl',
          referenceLocator: 'pkg:apk/alpine/musl@1.2.4-r2?distro=alpine-3.19.1&arch=x86_64&upstream=musl',
        },
      ],
    },
    {
      SPDXID: 'SPDXRef-req',
      name: 'Requests',
      versionInfo: '2.31.0',
      licenseConcluded: 'Apache-2.0',
      externalRefs: [{ referenceCategory: 'PACKAGE_MANAGER', referenceType: 'purl', referenceLocator: 'pkg:pypi/Requests@2.31.0' }],
    },
    {
      SPDXID: 'SPDXRef-gem',
      name: 'rake',
      versionInfo: '13.0',
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:gem/rake@13.0' }],
    },
    { SPDXID: 'SPDXRef-file', name: 'some-file', versionInfo: '1' },
    { SPDXID: 'SPDXRef-bad', name: 'bad', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'not a purl' }] },
  ],
};

const CYCLONEDX = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  version: 1,
  metadata: { component: { type: 'container', name: 'app' } },
  components: [
    { type: 'operating-system', name: 'debian', version: '12' },
    {
      type: 'library',
      name: 'libssl3',
      version: '3.0.11-1~deb12u2',
      purl: 'pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12&upstream=openssl%403.0.11-1~deb12u2',
      licenses: [{ license: { id: 'Apache-2.0' } }],
    },
    {
      type: 'library',
      name: 'express',
      version: '4.18.2',
      purl: 'pkg:npm/express@4.18.2',
      licenses: [{ expression: 'MIT' }],
      components: [{ type: 'library', name: 'inner', version: '1.0.0', purl: 'pkg:maven/org.example/inner@1.0.0' }],
    },
  ],
};

describe('inventory: SBOM documents', () => {
  it('reads SPDX 2.x JSON: packages by purl, licenses, upstream as source, the OS; counts what it skips', () => {
    const inv = inventoryFromSbom(bytes(SPDX), 'spdx-json', DIGEST);
    assert.deepEqual(inv.os, { id: 'alpine', versionId: '3.19.1' });
    assert.deepEqual(
      inv.packages.map((p) => p.purl),
      ['pkg:apk/alpine/musl@1.2.4-r2?arch=x86_64&distro=alpine-3.19.1', 'pkg:pypi/requests@2.31.0'],
    );
    const musl = inv.packages[0];
    assert.deepEqual([musl.type, musl.namespace, musl.name, musl.version, musl.architecture], ['apk', 'alpine', 'musl', '1.2.4-r2', 'x86_64']);
    assert.deepEqual(musl.source, { name: 'musl' });
    assert.deepEqual(musl.licenses, ['MIT']);
    assert.deepEqual(musl.locations, [`sbom:${DIGEST}`]);
    assert.equal(musl.foundBy, 'sbom');
    assert.deepEqual(inv.packages[1].licenses, ['Apache-2.0']);
    assert.deepEqual(
      inv.skipped.map((s) => s.reason),
      ['1 package: purl type gem is not inventoried', '1 package: package without a purl', '1 package: invalid purl'],
    );
  });

  it('reads CycloneDX JSON: nested components, license ids and expressions, the OS component', () => {
    const inv = inventoryFromSbom(bytes(CYCLONEDX), 'cyclonedx-json', DIGEST);
    assert.deepEqual(inv.os, { id: 'debian', versionId: '12' });
    assert.deepEqual(
      inv.packages.map((p) => [p.purl, p.licenses]),
      [
        ['pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12', ['Apache-2.0']],
        ['pkg:maven/org.example/inner@1.0.0', undefined],
        ['pkg:npm/express@4.18.2', ['MIT']],
      ],
    );
    assert.deepEqual(inv.packages[0].source, { name: 'openssl', version: '3.0.11-1~deb12u2' });
    assert.deepEqual(inv.skipped, []);
  });

  it('takes the OS from a distro qualifier when no OS component is listed', () => {
    const inv = inventoryFromSbom(bytes({ ...CYCLONEDX, components: CYCLONEDX.components.slice(1) }), 'cyclonedx-json', DIGEST);
    assert.deepEqual(inv.os, { id: 'debian', versionId: '12' });
  });

  it('refuses what is not an SBOM of the format named, with a skipped entry and no exception', () => {
    const cases: Array<[Uint8Array, 'spdx-json' | 'cyclonedx-json', RegExp]> = [
      [new TextEncoder().encode('{"spdxVersion": '), 'spdx-json', /not valid UTF-8 JSON/],
      [new Uint8Array([0x22, 0xff, 0x22]), 'spdx-json', /not valid UTF-8 JSON/],
      [bytes([1, 2]), 'spdx-json', /not a JSON object/],
      [bytes({ spdxVersion: 'SPDX-3.0' }), 'spdx-json', /not an SPDX 2.x/],
      [bytes(SPDX), 'cyclonedx-json', /not a CycloneDX JSON document/],
      [bytes({ ...CYCLONEDX, specVersion: '9.9' }), 'cyclonedx-json', /spec version 9.9 is not known/],
      [new TextEncoder().encode(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), 'cyclonedx-json', /not valid UTF-8 JSON|not a JSON object/],
    ];
    for (const [doc, format, reason] of cases) {
      const inv = inventoryFromSbom(doc, format, DIGEST);
      assert.deepEqual(inv.packages, []);
      assert.equal(inv.skipped.length, 1);
      assert.equal(inv.skipped[0].path, `sbom:${DIGEST}`);
      assert.match(inv.skipped[0].reason, reason);
    }
  });

  it('merges an SBOM into the image inventory: one package per purl, locations from both, the image’s OS first', async () => {
    const image = await inventoryLayers([
      await layer([
        { name: 'etc/os-release', data: 'ID=alpine\nVERSION_ID=3.19.1\n' },
        { name: 'lib/apk/db/installed', data: 'P:libcrypto3\nV:3.1.4-r5\nA:x86_64\no:openssl\nL:Apache-2.0\n' },
      ]),
    ]);
    const sbom = inventoryFromSbom(
      bytes({
        spdxVersion: 'SPDX-2.3',
        packages: [
          {
            name: 'libcrypto3',
            versionInfo: '3.1.4-r5',
            externalRefs: [
              {
                referenceCategory: 'PACKAGE-MANAGER',
                referenceType: 'purl',
                referenceLocator: 'pkg:apk/alpine/libcrypto3@3.1.4-r5?arch=x86_64&upstream=openssl&distro=alpine-3.19.1',
              },
            ],
          },
          {
            name: 'x',
            versionInfo: '1.0.0',
            externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/x@1.0.0' }],
          },
        ],
      }),
      'spdx-json',
      DIGEST,
    );
    const merged = mergeInventories(image, sbom, { packages: [], skipped: [{ path: 'sbom:other', reason: 'r' }] });
    assert.deepEqual(merged.os, image.os);
    assert.deepEqual(
      merged.packages.map((p) => [p.purl, p.locations, p.foundBy]),
      [
        // Syft's upstream qualifier is the source package, not part of the purl: the two are one package.
        ['pkg:apk/alpine/libcrypto3@3.1.4-r5?arch=x86_64&distro=alpine-3.19.1', ['lib/apk/db/installed', `sbom:${DIGEST}`], 'apk-db'],
        ['pkg:npm/x@1.0.0', [`sbom:${DIGEST}`], 'sbom'],
      ],
    );
    assert.deepEqual(merged.skipped, [{ path: 'sbom:other', reason: 'r' }]);
    assert.deepEqual(image.packages[0].locations, ['lib/apk/db/installed'], 'the inputs are left as they were');
  });
});
