// Packages compiled into binaries: Go build info (Go ≥ 1.18 inline form) and
// cargo-auditable's `.dep-v0` section, in ELF files built here with gcc and
// objcopy --add-section (skipped, saying so, where those tools are absent).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { decodeGoBuildInfo, GoBuildInfoScanner } from '../../src/scanning/inventory/go-buildinfo.js';
import { inventoryLayers } from '../../src/scanning/inventory/inventory-layers.js';
import { layer, MEDIA, streamedLayer, tarBytes } from '../harness/tar-layer.js';

const TOOLS = ['gcc', 'objcopy'].every((t) => spawnSync(t, ['--version']).status === 0);
const SKIP = TOOLS ? false : 'gcc and objcopy (binutils) are needed to build the test ELF files';

function uvarint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

/** The `.go.buildinfo` blob as the Go ≥ 1.18 linker writes it: header, then the version and module strings inline. */
function goBuildInfo(goVersion: string, modinfo: string): Buffer {
  const header = Buffer.alloc(32);
  header.write('\xff Go buildinf:', 0, 'latin1');
  header[14] = 8; // pointer size
  header[15] = 2; // flag: strings inline
  const start = Buffer.from('3077af0c9274080241e1c107e6d618e6', 'hex');
  const end = Buffer.from('f932433186182072008242104116d8f2', 'hex');
  const mod = Buffer.concat([start, Buffer.from(modinfo), end]);
  const vers = Buffer.from(goVersion);
  return Buffer.concat([header, uvarint(vers.length), vers, uvarint(mod.length), mod]);
}

const MODINFO = [
  'path\texample.com/hello',
  'mod\texample.com/hello\tv1.4.0\th1:abc=',
  'dep\tgolang.org/x/text\tv0.3.7\th1:xyz=',
  'dep\tgithub.com/old/mod\tv1.0.0\th1:old=',
  '=>\tgithub.com/new/mod\tv1.2.0\th1:new=',
  'dep\tgithub.com/local/mod\tv0.1.0',
  '=>\t../local\t',
  'build\t-compiler=gc',
  '',
].join('\n');

const DEP_V0 = {
  packages: [
    { name: 'hello', version: '0.1.0', source: 'local', kind: 'runtime', dependencies: [1, 2], root: true },
    { name: 'serde', version: '1.0.190', source: 'crates.io', kind: 'runtime', dependencies: [] },
    { name: 'cc', version: '1.0.83', source: 'crates.io', kind: 'build', dependencies: [] },
  ],
};

describe('inventory: Go build info search', () => {
  it('finds the aligned blob however the file is cut into chunks, past stray copies of the magic', () => {
    const blob = goBuildInfo('go1.22.1 X:boringcrypto', MODINFO);
    const magic = (tail: string) => Buffer.from(`\xff Go buildinf:${tail}`, 'latin1');
    // An aligned copy with no pointer size, then an unaligned one, then the blob.
    const file = Buffer.concat([Buffer.alloc(16, 1), magic('\x00\x00'), Buffer.alloc(5, 2), magic('\x00'), Buffer.alloc(12, 2), blob, Buffer.alloc(100, 3)]);
    assert.equal(file.indexOf(blob) % 16, 0);
    for (const size of [1, 5, 13, 14, 15, 16, 17, 31, 64, file.length]) {
      const scanner = new GoBuildInfoScanner(1 << 20);
      for (let at = 0; at < file.length; at += size) scanner.push(file.subarray(at, at + size));
      const found = scanner.blob();
      assert.ok(found, `chunks of ${size}`);
      const info = decodeGoBuildInfo(found);
      assert.ok(typeof info !== 'string', String(info));
      assert.equal(info.goVersion, 'go1.22.1 X:boringcrypto');
      assert.deepEqual(
        info.modules.map((m) => `${m.path}@${m.version}`),
        ['example.com/hello@v1.4.0', 'golang.org/x/text@v0.3.7', 'github.com/new/mod@v1.2.0', 'github.com/local/mod@v0.1.0'],
      );
    }
  });

  it('says why it cannot decode a cut blob or the pre-1.18 form', () => {
    const blob = goBuildInfo('go1.21.5', MODINFO);
    assert.match(String(decodeGoBuildInfo(blob.subarray(0, 40))), /run past/);
    const old = Buffer.from(blob);
    old[15] = 0;
    assert.match(String(decodeGoBuildInfo(old)), /before Go 1.18/);
  });
});

describe('inventory: Go and Rust binaries', { skip: SKIP }, () => {
  let dir = '';
  let goBin: Buffer;
  let rustBin: Buffer;
  let plainBin: Buffer;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-elf-'));
    // The decoy string is what a program that reads build info carries in its read-only data.
    writeFileSync(join(dir, 'main.c'), 'const char decoy[] = "\\xff Go buildinf:"; int main(void) { return decoy[0] == 0; }\n');
    execFileSync('gcc', ['-O0', '-o', join(dir, 'plain'), join(dir, 'main.c')]);
    // The Go linker aligns the blob to 16 bytes; objcopy does not align an added section, so pad it to land there.
    const blob = goBuildInfo('go1.21.5', MODINFO);
    const addGoSection = (pad: number) => {
      writeFileSync(join(dir, 'buildinfo.bin'), Buffer.concat([Buffer.alloc(pad), blob]));
      execFileSync('objcopy', ['--add-section', `.go.buildinfo=${join(dir, 'buildinfo.bin')}`, join(dir, 'plain'), join(dir, 'go')]);
      return readFileSync(join(dir, 'go')).lastIndexOf(blob.subarray(0, 16));
    };
    const offset = addGoSection(0);
    if (offset % 16 !== 0) addGoSection(16 - (offset % 16));
    writeFileSync(join(dir, 'dep-v0.bin'), deflateSync(Buffer.from(JSON.stringify(DEP_V0))));
    execFileSync('objcopy', ['--add-section', `.dep-v0=${join(dir, 'dep-v0.bin')}`, join(dir, 'plain'), join(dir, 'rust')]);
    goBin = readFileSync(join(dir, 'go'));
    rustBin = readFileSync(join(dir, 'rust'));
    plainBin = readFileSync(join(dir, 'plain'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads Go build info: the standard library, the main module, dependencies with replacements', async () => {
    const inv = await inventoryLayers([await layer([{ name: 'usr/bin/hello', data: goBin, mode: 0o755 }])]);
    assert.deepEqual(
      inv.packages.map((p) => p.purl),
      [
        'pkg:golang/example.com/hello@v1.4.0',
        'pkg:golang/github.com/local/mod@v0.1.0',
        'pkg:golang/github.com/new/mod@v1.2.0',
        'pkg:golang/golang.org/x/text@v0.3.7',
        'pkg:golang/stdlib@1.21.5',
      ],
    );
    assert.ok(inv.packages.every((p) => p.foundBy === 'go-binary' && p.locations[0] === 'usr/bin/hello'));
    assert.equal(inv.packages[3].namespace, 'golang.org/x');
    assert.deepEqual(inv.skipped, []);
  });

  it('reads binaries whose bytes arrive a few at a time (an entry may start at the end of a decompressed chunk)', async () => {
    const tar = await tarBytes([
      { name: 'usr/bin/hello', data: goBin },
      { name: 'usr/bin/tool', data: rustBin },
    ]);
    const inv = await inventoryLayers([
      streamedLayer('sha256:t', MEDIA.tar, function* () {
        for (let at = 0; at < tar.length; at += 3) yield tar.subarray(at, at + 3);
      }),
    ]);
    assert.deepEqual(
      inv.packages.map((p) => `${p.purl} ${p.locations[0]}`),
      [
        'pkg:cargo/serde@1.0.190 usr/bin/tool',
        'pkg:golang/example.com/hello@v1.4.0 usr/bin/hello',
        'pkg:golang/github.com/local/mod@v0.1.0 usr/bin/hello',
        'pkg:golang/github.com/new/mod@v1.2.0 usr/bin/hello',
        'pkg:golang/golang.org/x/text@v0.3.7 usr/bin/hello',
        'pkg:golang/stdlib@1.21.5 usr/bin/hello',
      ],
    );
  });

  it('finds Go build info in a binary too big to keep, by the streamed search, and not past the search bound', async () => {
    const found = await inventoryLayers([await layer([{ name: 'app', data: goBin }])], { maxBinaryBytes: 1024 });
    assert.equal(found.packages.length, 5);
    const cut = await inventoryLayers([await layer([{ name: 'app', data: goBin }])], { maxBinaryScanBytes: 1024 });
    assert.deepEqual(cut.packages, []);
  });

  it('reads a cargo-auditable section: runtime crates from a registry, not build or local ones', async () => {
    const inv = await inventoryLayers([await layer([{ name: 'usr/local/bin/tool', data: rustBin, mode: 0o755 }])]);
    assert.deepEqual(
      inv.packages.map((p) => [p.purl, p.foundBy]),
      [['pkg:cargo/serde@1.0.190', 'rust-audit']],
    );
  });

  it('reports, rather than reads, the sections of an ELF file over the bound; a plain binary gives nothing', async () => {
    const inv = await inventoryLayers(
      [
        await layer([
          { name: 'big', data: rustBin },
          { name: 'plain', data: plainBin },
        ]),
      ],
      { maxBinaryBytes: 1024 },
    );
    assert.deepEqual(inv.packages, []);
    assert.deepEqual(
      inv.skipped.map((s) => s.path),
      ['big', 'plain'],
    );
    assert.match(inv.skipped[0].reason, /larger than 1024 bytes/);
    const small = await inventoryLayers([await layer([{ name: 'plain', data: plainBin }])]);
    assert.deepEqual(small, { packages: [], skipped: [] });
  });

  it('turns a truncated ELF file or a corrupt section into a skipped entry', async () => {
    const corrupt = Buffer.from(rustBin);
    const at = corrupt.indexOf(deflateSync(Buffer.from(JSON.stringify(DEP_V0))).subarray(0, 8));
    corrupt.fill(0x41, at, at + 16);
    const inv = await inventoryLayers([
      await layer([
        { name: 'cut', data: rustBin.subarray(0, 4096) },
        { name: 'corrupt', data: corrupt },
      ]),
    ]);
    assert.deepEqual(inv.packages, []);
    assert.deepEqual(
      inv.skipped.map((s) => s.path),
      ['cut', 'corrupt'],
    );
    assert.match(inv.skipped[0].reason, /outside the file/);
    assert.match(inv.skipped[1].reason, /cargo-auditable section unreadable/);
  });
});
