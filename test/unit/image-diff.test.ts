// What `berth images diff` and `--platform` decide without a server: package
// identity across qualifiers and versions, one flaw under two ids, and the
// choice of an index's image.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffPackages, diffVulnerabilities } from '../../src/cli/image-diff.js';
import { parsePlatform, pickPlatform } from '../../src/cli/platform-flag.js';

describe('diffPackages', () => {
  it('keeps a package whose distro or arch qualifier changed as the same package', () => {
    const d = diffPackages(
      [{ name: 'musl', version: '1.2.4-r0', purl: 'pkg:apk/alpine/musl@1.2.4-r0?arch=x86_64&distro=alpine-3.19.1' }],
      [{ name: 'musl', version: '1.2.5-r0', purl: 'pkg:apk/alpine/musl@1.2.5-r0?arch=x86_64&distro=alpine-3.20.0' }],
    );
    assert.deepEqual(d.added, []);
    assert.deepEqual(d.removed, []);
    assert.deepEqual(
      d.changed.map((c) => [c.name, c.previous.version, c.current.version]),
      [['musl', '1.2.4-r0', '1.2.5-r0']],
    );
  });

  it('tells ecosystems apart, and lists every version of a package held at several', () => {
    const d = diffPackages(
      [
        { name: 'requests', version: '2.31.0', purl: 'pkg:pypi/requests@2.31.0' },
        { name: 'ms', version: '2.1.2', purl: 'pkg:npm/ms@2.1.2' },
        { name: 'ms', version: '2.1.3', purl: 'pkg:npm/ms@2.1.3' },
      ],
      [
        { name: 'requests', version: '2.31.0', purl: 'pkg:npm/requests@2.31.0' },
        { name: 'ms', version: '2.1.3', purl: 'pkg:npm/ms@2.1.3' },
        { name: 'ms', version: '2.1.3', purl: 'pkg:npm/ms@2.1.3' },
      ],
    );
    assert.deepEqual(
      d.added.map((p) => p.purl),
      ['pkg:npm/requests@2.31.0'],
    );
    assert.deepEqual(
      d.removed.map((p) => p.purl),
      ['pkg:pypi/requests@2.31.0'],
    );
    assert.deepEqual(
      d.changed.map((c) => [c.name, c.previous.version, c.current.version]),
      [['ms', '2.1.2, 2.1.3', '2.1.3']],
    );
  });

  it('identifies a package without a readable purl by its name', () => {
    const d = diffPackages([{ name: 'x', version: '1' }], [{ name: 'x', version: '2', purl: 'not a purl' }]);
    assert.deepEqual(
      d.changed.map((c) => [c.name, c.previous.version, c.current.version]),
      [['x', '1', '2']],
    );
  });
});

describe('diffVulnerabilities', () => {
  it('meets a GHSA id and its CVE alias, per package, and sorts by severity', () => {
    const d = diffVulnerabilities(
      [
        { id: 'GHSA-aaaa-bbbb-cccc', aliases: ['CVE-2024-1'], package: { name: 'p' } },
        { id: 'CVE-2024-2', severity: 'LOW', package: { name: 'p' } },
        { id: 'CVE-2024-3', severity: 'CRITICAL', package: { name: 'p' } },
        { id: 'CVE-2024-3', severity: 'CRITICAL', package: { name: 'p' } },
      ],
      [
        { id: 'cve-2024-1', package: { name: 'p' } },
        { id: 'CVE-2024-2', severity: 'LOW', package: { name: 'q' } },
      ],
    );
    assert.deepEqual(
      d.fixed.map((v) => `${v.id} ${v.package?.name}`),
      ['CVE-2024-3 p', 'CVE-2024-2 p'],
    );
    assert.deepEqual(
      d.introduced.map((v) => `${v.id} ${v.package?.name}`),
      ['CVE-2024-2 q'],
    );
  });
});

describe('--platform', () => {
  const offered = [
    { os: 'linux', architecture: 'amd64', variant: '', digest: 'a' },
    { os: 'linux', architecture: 'arm64', variant: 'v8', digest: 'b' },
    { os: 'linux', architecture: 'arm', variant: 'v6', digest: 'c' },
    { os: 'linux', architecture: 'arm', variant: 'v7', digest: 'd' },
  ];
  it('picks linux/amd64 by default, a lone variant without naming it, a named variant exactly', () => {
    assert.equal(pickPlatform(offered, undefined, false)?.digest, 'a');
    assert.equal(pickPlatform(offered, parsePlatform('linux/arm64'), false)?.digest, 'b');
    assert.equal(pickPlatform(offered, parsePlatform('linux/arm/v7'), false)?.digest, 'd');
    assert.equal(pickPlatform(offered, parsePlatform('linux/arm'), false), undefined, 'two arm variants: ambiguous');
    assert.equal(pickPlatform(offered, parsePlatform('windows/amd64'), false), undefined);
  });

  it('takes a single image whatever its platform unless one was asked for', () => {
    const single = [{ os: 'linux', architecture: 's390x', variant: '', digest: 's' }];
    assert.equal(pickPlatform(single, undefined, true)?.digest, 's');
    assert.equal(pickPlatform(single, parsePlatform('linux/amd64'), true), undefined);
  });

  it('refuses what is not os/arch[/variant]', () => {
    for (const bad of ['amd64', 'linux/', 'linux/amd64/v1/x', 'Linux/AMD64', `linux/${'a'.repeat(40)}`]) {
      assert.throws(() => parsePlatform(bad), /is not os\/arch\[\/variant\]/, bad);
    }
  });
});
