// Hostile and malformed layers: every case ends in a SkippedEntry that says
// why, the rest of the inventory stands, and memory stays flat while a huge
// entry or database streams through (relative bounds only, no timings).
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { createGzip, gzipSync } from 'node:zlib';
import { inventoryLayers } from '../../src/scanning/inventory/inventory-layers.js';
import { normalizeEntryPath } from '../../src/scanning/inventory/layer-paths.js';
import { blobLayer, fileHeader, layer, MEDIA, streamedLayer, tarBytes } from '../harness/tar-layer.js';

const pkgJson = (name: string, version = '1.0.0') => JSON.stringify({ name, version });
const MiB = 1024 * 1024;

/** A tar stream: `size` bytes of zeros in one entry, then a package.json, then the end blocks, never whole in memory. */
async function* hugeEntryTar(size: number): AsyncGenerator<Buffer> {
  yield fileHeader('var/cache/huge.bin', size);
  const zeros = Buffer.alloc(MiB);
  for (let left = size; left > 0; left -= MiB) yield left >= MiB ? zeros : zeros.subarray(0, left);
  if (size % 512 !== 0) yield Buffer.alloc(512 - (size % 512));
  const tail = await tarBytes([{ name: 'app/node_modules/after/package.json', data: pkgJson('after') }]);
  yield tail;
}

/** Gzip a generated stream, keeping only the compressed bytes. */
async function gzipStream(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of Readable.from(source).pipe(createGzip({ level: 1 }))) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function memory(): number {
  const m = process.memoryUsage();
  return m.rss;
}

describe('inventory: hostile layers', () => {
  it('refuses paths that escape the root or hold NUL, and reads absolute paths inside the root', async () => {
    assert.deepEqual(normalizeEntryPath('/etc/./os-release', 4096, 64), { ok: true, path: 'etc/os-release' });
    assert.deepEqual(normalizeEntryPath('a/b/../../c', 4096, 64), { ok: true, path: 'c' });
    assert.equal(normalizeEntryPath('../etc/passwd', 4096, 64).ok, false);
    assert.equal(normalizeEntryPath('a/../../etc/passwd', 4096, 64).ok, false);
    assert.equal(normalizeEntryPath('a\u0000b', 4096, 64).ok, false);
    assert.equal(normalizeEntryPath('a/'.repeat(65), 4096, 64).ok, false);
    assert.equal(normalizeEntryPath('x'.repeat(4097), 4096, 64).ok, false);
    const inv = await inventoryLayers([
      await layer([
        { name: '../../lib/apk/db/installed', data: 'P:evil\nV:1\n' },
        { name: 'x/../../etc/os-release', data: 'ID=evil\n' },
        { name: '/etc/os-release', data: 'ID=alpine\nVERSION_ID=3.19.0\n' },
        { name: `${'d/'.repeat(300)}node_modules/deep/package.json`, data: pkgJson('deep') },
        { name: '/lib/apk/db/installed', data: 'P:zlib\nV:1.3-r0\n' },
      ]),
    ]);
    assert.equal(inv.os?.id, 'alpine');
    assert.deepEqual(
      inv.packages.map((p) => p.name),
      ['zlib'],
    );
    assert.deepEqual(
      inv.skipped.map((s) => s.reason),
      ['path escapes the image root (..)', 'path escapes the image root (..)', 'path deeper than 256 components'],
    );
  });

  it('stops reading a tar bomb at the compression-ratio bound and reads the next layer', async () => {
    const bomb = await gzipStream(hugeEntryTar(64 * MiB));
    const inv = await inventoryLayers(
      [
        await layer([{ name: 'etc/os-release', data: 'ID=alpine\n' }]),
        blobLayer(bomb, MEDIA.gzip),
        await layer([{ name: 'app/node_modules/next/package.json', data: pkgJson('next') }]),
      ],
      { ratioFloorBytes: 4 * MiB },
    );
    assert.equal(inv.os?.id, 'alpine');
    assert.deepEqual(
      inv.packages.map((p) => p.name),
      ['next'],
    );
    assert.equal(inv.skipped.length, 1);
    assert.match(inv.skipped[0].reason, /compression ratio above 100:1/);
    assert.equal(inv.skipped[0].layer, blobLayer(bomb, MEDIA.gzip).digest);
  });

  it('stops at the per-layer and per-image decompressed byte bounds', async () => {
    const big = await layer([
      { name: 'blob.bin', data: Buffer.alloc(2 * MiB, 1) },
      { name: 'app/node_modules/late/package.json', data: pkgJson('late') },
    ]);
    const perLayer = await inventoryLayers([big], { maxLayerBytes: MiB });
    assert.deepEqual(perLayer.packages, []);
    assert.match(perLayer.skipped[0].reason, /layer larger than 1048576 bytes/);
    const small = await layer([{ name: 'app/node_modules/first/package.json', data: pkgJson('first') }]);
    const perImage = await inventoryLayers([small, big, small], { maxImageBytes: MiB });
    assert.deepEqual(
      perImage.packages.map((p) => p.name),
      ['first'],
    );
    assert.deepEqual(
      perImage.skipped.map((s) => s.reason),
      ['image larger than 1048576 bytes decompressed; the rest was not read', "not read: the image's 1048576 decompressed bytes were reached"],
    );
  });

  it('streams past a 1 GiB file entry without holding it, and reads the entry after it', async () => {
    const before = memory();
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, memory());
    }, 20);
    const inv = await inventoryLayers([streamedLayer('sha256:huge', MEDIA.tar, () => hugeEntryTar(1024 * MiB))]);
    clearInterval(timer);
    peak = Math.max(peak, memory());
    assert.deepEqual(
      inv.packages.map((p) => p.name),
      ['after'],
    );
    assert.deepEqual(inv.skipped, []);
    // Held whole, the entry alone would add 1 GiB; streamed, the growth is a small fraction of it.
    assert.ok(peak - before < 256 * MiB, `memory grew by ${Math.round((peak - before) / MiB)} MiB`);
  });

  it('reads a 50 MB dpkg status as it streams, in memory well under its size', async () => {
    const stanza = (i: number) =>
      `Package: pkg${i}\nStatus: install ok installed\nPriority: optional\nVersion: 1.${i}-1\nArchitecture: amd64\nSource: src${i % 100} (1.${i})\nDescription: package ${i}\n${' .\n'.repeat(2)}${` ${'x'.repeat(70)}\n`.repeat(24)}\n`;
    const count = 25_000;
    async function* status(): AsyncGenerator<Buffer> {
      const body: Buffer[] = [];
      let size = 0;
      for (let i = 0; i < count; i++) {
        const b = Buffer.from(stanza(i));
        body.push(b);
        size += b.length;
      }
      // The status file is built here as test input; what is measured is the reader's growth after it.
      yield fileHeader('var/lib/dpkg/status', size);
      yield* body;
      if (size % 512 !== 0) yield Buffer.alloc(512 - (size % 512));
      yield Buffer.alloc(1024);
    }
    const blob = await gzipStream(status());
    global.gc?.();
    const before = memory();
    const inv = await inventoryLayers([blobLayer(blob, MEDIA.gzip)]);
    const grown = memory() - before;
    assert.equal(inv.packages.length, count);
    assert.deepEqual(inv.packages.find((p) => p.name === 'pkg123')?.source, { name: 'src23', version: '1.123' });
    assert.deepEqual(inv.skipped, []);
    assert.ok(grown < 50 * MiB, `memory grew by ${Math.round(grown / MiB)} MiB reading a ${Math.round((count * stanza(0).length) / MiB)} MiB database`);
  });

  it('keeps what a database bound cut short, and says so', async () => {
    const db = Array.from({ length: 100 }, (_, i) => `P:p${i}\nV:1.${i}-r0\n`).join('\n');
    // 500 bytes end inside the stanza of p30: it is cut, so it is not read (its version could be cut short).
    const inv = await inventoryLayers([await layer([{ name: 'lib/apk/db/installed', data: db }])], { maxDatabaseBytes: 500 });
    assert.deepEqual(
      inv.packages.map((p) => p.name).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
      Array.from({ length: 30 }, (_, i) => `p${i}`),
    );
    assert.match(inv.skipped[0].reason, /package database larger than 500 bytes/);
  });

  it('records symlinks, and follows them only within a bound: a loop is a skipped entry', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'etc/os-release', type: 'symlink', linkname: '/usr/lib/os-release' },
        { name: 'usr/lib/os-release', type: 'symlink', linkname: '../../etc/os-release' },
        { name: 'var/lib/dpkg/status', type: 'symlink', linkname: 'status' },
        { name: 'lib/apk/db/installed', type: 'symlink', linkname: '/nowhere' },
      ]),
    ]);
    assert.equal(inv.os, undefined);
    assert.deepEqual(inv.packages, []);
    assert.deepEqual(
      inv.skipped.map((s) => [s.path, s.reason]),
      [
        ['etc/os-release', 'symlink chain longer than 16 links (a loop?)'],
        ['usr/lib/os-release', 'symlink chain longer than 16 links (a loop?)'],
        ['var/lib/dpkg/status', 'symlink chain longer than 16 links (a loop?)'],
        ['lib/apk/db/installed', 'symlink to nowhere, which holds nothing the inventory reads'],
      ],
    );
  });

  it('reads what it can of malformed databases and metadata', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'lib/apk/db/installed', data: `P:ok\nV:1-r0\n\nV:2-r0\nA:x86_64\n\nP:${'x'.repeat(70_000)}\nP:long\nV:3-r0\n\n\u0000\u0001\u0002garbage\n` },
        { name: 'var/lib/dpkg/status', data: 'Package: half\nStatus: install ok installed\n\nPackage: fine\nStatus: install ok installed\nVersion: 1.0\n' },
        { name: 'etc/os-release', data: 'NAME=nothing\n' },
        { name: 'x.dist-info/METADATA', data: 'Name: onlyname\n' },
      ]),
    ]);
    assert.deepEqual(
      inv.packages.map((p) => p.name),
      ['long', 'ok', 'fine'],
    );
    assert.deepEqual(
      inv.skipped.map((s) => s.reason),
      [
        'apk database stanza without P: or V:',
        '1 lines longer than 65536 bytes were not read',
        'dpkg stanza without Package: or Version:',
        'Python metadata without Name and Version',
        'os-release without an ID',
      ],
    );
  });

  it('turns a corrupt or truncated layer into a skipped entry and keeps the other layers', async () => {
    const good = await tarBytes([{ name: 'app/node_modules/a/package.json', data: pkgJson('a') }]);
    const gz = gzipSync(good);
    const inv = await inventoryLayers([
      blobLayer(Buffer.from('definitely not gzip'), MEDIA.gzip),
      blobLayer(gz.subarray(0, gz.length - 20), MEDIA.gzip),
      blobLayer(Buffer.alloc(1024, 0x41), MEDIA.tar),
      blobLayer(Buffer.from('not zstd either'), MEDIA.zstd),
      await layer([{ name: 'app/node_modules/b/package.json', data: pkgJson('b') }]),
    ]);
    assert.deepEqual(
      inv.packages.map((p) => p.name),
      ['b'],
    );
    assert.equal(inv.skipped.length, 4);
    for (const s of inv.skipped) assert.match(s.reason, /^unreadable layer: /);
  });

  it('bounds entries per layer, packages, skipped entries and time', async () => {
    const many = await layer(Array.from({ length: 20 }, (_, i) => ({ name: `n/node_modules/p${i}/package.json`, data: pkgJson(`p${i}`) })));
    const entries = await inventoryLayers([many], { maxLayerEntries: 5 });
    assert.ok(entries.packages.length <= 5);
    assert.match(entries.skipped[0].reason, /more than 5 entries/);
    const packages = await inventoryLayers([many], { maxPackages: 3 });
    assert.equal(packages.packages.length, 3);
    assert.match(packages.skipped[0].reason, /17 packages past the limit of 3/);
    const hostile = await layer(Array.from({ length: 30 }, (_, i) => ({ name: `../escape${i}`, data: '' })));
    const skipped = await inventoryLayers([hostile], { maxSkipped: 10 });
    assert.equal(skipped.skipped.length, 11);
    assert.equal(skipped.skipped[10].reason, '20 more skipped entries not listed (limit 10)');
    const late = await inventoryLayers([many, many], { timeoutMs: 0 });
    assert.deepEqual(late.packages, []);
    assert.deepEqual(
      late.skipped.map((s) => s.reason),
      ['not read: the time limit of 0 ms was reached', 'not read: the time limit of 0 ms was reached'],
    );
  });

  it('ends a layer at a bound while its blob is still streaming: a skipped entry, not a blob error', async () => {
    async function* manyEntries(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 20_000; i++) yield Buffer.concat([fileHeader(`f${i}`, 1), Buffer.alloc(512, 0x61)]);
      yield Buffer.alloc(1024);
    }
    const bound = async (chunks: () => AsyncGenerator<Buffer>, limits: Parameters<typeof inventoryLayers>[1]) =>
      (await inventoryLayers([streamedLayer('sha256:s', MEDIA.tar, chunks)], limits)).skipped.map((s) => s.reason);
    assert.deepEqual(await bound(() => hugeEntryTar(64 * MiB), { maxLayerBytes: 4 * MiB }), [
      'layer larger than 4194304 bytes decompressed; the rest was not read',
    ]);
    assert.deepEqual(await bound(manyEntries, { maxLayerEntries: 10 }), ['layer with more than 10 entries; the rest were not read']);
    const late = await bound(() => hugeEntryTar(64 * MiB), { timeoutMs: 1 });
    assert.equal(late.length, 1);
    assert.match(late[0], /time limit of 1 ms/);
  });

  it('rejects when the blob itself cannot be read: a storage error is not the image’s content', async () => {
    await assert.rejects(
      inventoryLayers([{ digest: 'sha256:x', mediaType: MEDIA.gzip, size: 1, open: () => Promise.reject(new Error('blob missing')) }]),
      /blob missing/,
    );
    const failing = {
      digest: 'sha256:y',
      mediaType: MEDIA.tar,
      size: 1,
      open: async () =>
        Readable.from(
          (async function* () {
            yield Buffer.alloc(512);
            throw new Error('disk read failed');
          })(),
        ),
    };
    await assert.rejects(inventoryLayers([failing]), /disk read failed/);
  });
});
