// Layers stacked as the OCI image layer specification says: a whiteout
// deletes a path and what is under it from lower layers, an opaque directory
// hides the lower contents of that directory, a file replaces a lower
// directory, a later database replaces an earlier one; every layer media type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inventoryLayers } from '../../src/scanning/inventory/inventory-layers.js';
import { layer, MEDIA } from '../harness/tar-layer.js';

const pkgJson = (name: string, version: string) => JSON.stringify({ name, version });
const names = (inv: { packages: { name: string; version: string }[] }) => inv.packages.map((p) => `${p.name}@${p.version}`);

describe('inventory: layers and whiteouts', () => {
  it('drops what a whiteout deletes, and a whole subtree with its directory', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'app/node_modules/left-pad/package.json', data: pkgJson('left-pad', '1.0.0') },
        { name: 'app/node_modules/kept/package.json', data: pkgJson('kept', '2.0.0') },
        { name: 'srv/node_modules/a/package.json', data: pkgJson('a', '1.0.0') },
        { name: 'srv/node_modules/b/package.json', data: pkgJson('b', '1.0.0') },
        { name: 'lib/apk/db/installed', data: 'P:zlib\nV:1.3-r0\nA:x86_64\n' },
      ]),
      await layer([
        { name: 'app/node_modules/left-pad/.wh.package.json', data: '' },
        { name: 'srv/.wh.node_modules', data: '' },
        { name: 'lib/apk/db/.wh.installed', data: '' },
      ]),
    ]);
    assert.deepEqual(names(inv), ['kept@2.0.0']);
  });

  it('hides a lower directory’s contents behind an opaque marker, but keeps what the same layer adds there', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'app/node_modules/old/package.json', data: pkgJson('old', '1.0.0') },
        { name: 'other/node_modules/x/package.json', data: pkgJson('x', '1.0.0') },
      ]),
      await layer([
        { name: 'app/node_modules/new/package.json', data: pkgJson('new', '1.0.0') },
        { name: 'app/node_modules/.wh..wh..opq', data: '' },
      ]),
    ]);
    assert.deepEqual(names(inv), ['new@1.0.0', 'x@1.0.0']);
  });

  it('lets a later layer’s database replace an earlier one, and a file replace a lower directory', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'lib/apk/db/installed', data: 'P:zlib\nV:1.2-r0\n\nP:gone\nV:1\n' },
        { name: 'opt/node_modules/d/package.json', data: pkgJson('d', '1.0.0') },
      ]),
      await layer([{ name: 'lib/apk/db/installed', data: 'P:zlib\nV:1.3-r0\n' }], MEDIA.zstd),
      await layer([{ name: 'opt/node_modules', data: 'now a file' }], MEDIA.tar),
    ]);
    assert.deepEqual(names(inv), ['zlib@1.3-r0']);
  });

  it('reads a file a later layer adds back after a whiteout', async () => {
    const inv = await inventoryLayers([
      await layer([{ name: 'a/node_modules/p/package.json', data: pkgJson('p', '1.0.0') }]),
      await layer([{ name: 'a/.wh.node_modules', data: '' }]),
      await layer([{ name: 'a/node_modules/p/package.json', data: pkgJson('p', '2.0.0') }], MEDIA.dockerGzip),
    ]);
    assert.deepEqual(names(inv), ['p@2.0.0']);
  });

  it('reads a hard link as the file it links to, found at the link’s path', async () => {
    const inv = await inventoryLayers([
      await layer([
        { name: 'backup/installed', data: 'P:zlib\nV:1.3-r0\n' },
        { name: 'lib/apk/db/installed', data: 'P:musl\nV:1.2.4-r2\n' },
        { name: 'usr/lib/node_modules/q/package.json', data: pkgJson('q', '1.0.0') },
        { name: 'opt/node_modules/q/package.json', type: 'link', linkname: 'usr/lib/node_modules/q/package.json' },
      ]),
    ]);
    assert.deepEqual(names(inv), ['musl@1.2.4-r2', 'q@1.0.0']);
    assert.deepEqual(inv.packages[1].locations, ['usr/lib/node_modules/q/package.json', 'opt/node_modules/q/package.json']);
  });

  it('skips a layer whose media type is not a tar, and reads the others', async () => {
    const inv = await inventoryLayers([
      { ...(await layer([{ name: 'x/node_modules/y/package.json', data: pkgJson('y', '1.0.0') }])), mediaType: 'application/vnd.oci.image.config.v1+json' },
      await layer([{ name: 'x/node_modules/z/package.json', data: pkgJson('z', '1.0.0') }]),
    ]);
    assert.deepEqual(names(inv), ['z@1.0.0']);
    assert.match(inv.skipped[0].reason, /is not a tar layer/);
  });
});
