// The inventory of OS packages: apk databases (Alpine, Wolfi) and dpkg (the
// test machine's own /var/lib/dpkg/status, distroless status.d), with the OS
// from os-release, purls as the purl specification gives them.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { inventoryLayers } from '../../src/scanning/inventory/inventory-layers.js';
import { layer, MEDIA } from '../harness/tar-layer.js';

const ALPINE_OS = 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.19.1\nPRETTY_NAME="Alpine Linux v3.19"\n';
const APK_DB = `C:Q1abc=
P:musl
V:1.2.4_git20230717-r4
A:x86_64
S:383152
o:musl
L:MIT
F:lib
R:ld-musl-x86_64.so.1

P:libcrypto3
V:3.1.4-r5
A:x86_64
o:openssl
L:Apache-2.0
F:usr/lib
R:libcrypto.so.3

P:busybox
V:1.36.1-r15
A:x86_64
L:GPL-2.0-only
`;

describe('inventory: OS packages', () => {
  it('reads an Alpine image: apk database, origin as source, purls with arch and distro', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'etc/', type: 'directory' },
        { name: 'etc/os-release', data: ALPINE_OS },
      ]),
      await layer([{ name: './lib/apk/db/installed', data: APK_DB }], MEDIA.zstd),
    ]);
    assert.deepEqual(inv.os, { id: 'alpine', versionId: '3.19.1', prettyName: 'Alpine Linux v3.19' });
    assert.deepEqual(inv.skipped, []);
    const byName = new Map(inv.packages.map((p) => [p.name, p]));
    assert.deepEqual([...byName.keys()].sort(), ['busybox', 'libcrypto3', 'musl']);
    const crypto = byName.get('libcrypto3');
    assert.equal(crypto?.purl, 'pkg:apk/alpine/libcrypto3@3.1.4-r5?arch=x86_64&distro=alpine-3.19.1');
    assert.deepEqual(crypto?.source, { name: 'openssl', version: '3.1.4-r5' });
    assert.deepEqual(crypto?.licenses, ['Apache-2.0']);
    assert.equal(crypto?.foundBy, 'apk-db');
    assert.deepEqual(crypto?.locations, ['lib/apk/db/installed']);
    assert.deepEqual(byName.get('busybox')?.source, { name: 'busybox', version: '1.36.1-r15' });
  });

  it('names Wolfi packages by the OS id, from usr/lib/os-release through the etc/os-release symlink, the database under a merged /usr', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'usr/lib/os-release', data: 'ID=wolfi\nNAME="Wolfi"\nVERSION_ID=20230201\n' },
        { name: 'etc/os-release', type: 'symlink', linkname: '../usr/lib/os-release' },
        { name: 'lib', type: 'symlink', linkname: 'usr/lib' },
        { name: 'usr/lib/apk/db/installed', data: 'P:glibc\nV:2.39-r1\nA:aarch64\no:glibc\n\n' },
      ]),
    ]);
    assert.equal(inv.os?.id, 'wolfi');
    assert.deepEqual(
      inv.packages.map((p) => p.purl),
      ['pkg:apk/wolfi/glibc@2.39-r1?arch=aarch64&distro=wolfi-20230201'],
    );
  });

  it('reads the test machine’s real dpkg status: every installed package, Source with its version', async (t) => {
    if (!existsSync('/var/lib/dpkg/status')) return t.skip('no /var/lib/dpkg/status on this machine');
    const status = readFileSync('/var/lib/dpkg/status');
    const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : 'ID=debian\nVERSION_ID="12"\n';
    const inv = await inventoryLayers([
      await layer(
        [
          { name: 'etc/os-release', data: osRelease },
          { name: 'var/lib/dpkg/status', data: status },
        ],
        MEDIA.dockerGzip,
      ),
    ]);
    // The expected set, read independently: stanzas whose Status ends in "installed".
    const expected = new Set<string>();
    for (const stanza of status.toString('utf8').split(/\n\n+/)) {
      const field = (k: string) => new RegExp(`^${k}: (.*)$`, 'm').exec(stanza)?.[1];
      if (field('Status')?.split(' ')[2] === 'installed') expected.add(`${field('Package')} ${field('Version')} ${field('Architecture')}`);
    }
    assert.ok(expected.size > 10, 'the machine has packages');
    assert.deepEqual(new Set(inv.packages.map((p) => `${p.name} ${p.version} ${p.architecture}`)), expected);
    const ns = inv.os?.id === 'ubuntu' ? 'ubuntu' : 'debian';
    for (const p of inv.packages) {
      assert.equal(p.type, 'deb');
      assert.ok(p.purl.startsWith(`pkg:deb/${ns}/`), p.purl);
      assert.ok(p.source?.name, `${p.name} has a source`);
    }
    const withSourceVersion = /^Package: (\S+)\n(?:.+\n)*?Source: (\S+) \(([^)]+)\)/m.exec(status.toString('utf8'));
    if (withSourceVersion) {
      const pkg = inv.packages.find((p) => p.name === withSourceVersion[1]);
      if (pkg) assert.deepEqual(pkg.source, { name: withSourceVersion[2], version: withSourceVersion[3] });
    }
  });

  it('reads a distroless status.d: one file per package, md5sums ignored, not-installed left out', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'etc/os-release', data: 'PRETTY_NAME="Distroless"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n' },
        { name: 'var/lib/dpkg/status.d/libc6', data: 'Package: libc6\nVersion: 2.36-9+deb12u4\nArchitecture: amd64\nSource: glibc\n' },
        { name: 'var/lib/dpkg/status.d/libc6.md5sums', data: 'd41d8cd98f00b204e9800998ecf8427e  lib/x86_64-linux-gnu/libc.so.6\n' },
        {
          name: 'var/lib/dpkg/status.d/libssl3',
          data: 'Package: libssl3\nStatus: install ok installed\nVersion: 3.0.11-1~deb12u2\nArchitecture: amd64\nSource: openssl (3.0.11-1~deb12u2)\n',
        },
        { name: 'var/lib/dpkg/status.d/gone', data: 'Package: gone\nStatus: deinstall ok config-files\nVersion: 1.0\nArchitecture: amd64\n' },
      ]),
    ]);
    assert.deepEqual(
      inv.packages.map((p) => p.purl),
      ['pkg:deb/debian/libc6@2.36-9+deb12u4?arch=amd64&distro=debian-12', 'pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12'],
    );
    assert.deepEqual(inv.packages[0].source, { name: 'glibc', version: '2.36-9+deb12u4' });
    assert.deepEqual(inv.packages[1].source, { name: 'openssl', version: '3.0.11-1~deb12u2' });
    assert.deepEqual(inv.packages[1].locations, ['var/lib/dpkg/status.d/libssl3']);
  });
});
