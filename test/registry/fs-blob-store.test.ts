// The filesystem blob store: the driver suite in a temporary directory, then
// what only a filesystem has — the states a crash leaves on disk, file modes,
// and a full disk (a small tmpfs mounted in a user namespace, in a child
// process that runs this file with BERTH_ENOSPC_ROOT set).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DigestMismatchError, UploadOffsetError, UploadTooLargeError } from '../../src/registry/blobs/blob-store.js';
import { BlobRootInUseError } from '../../src/registry/blobs/blob-root-lock.js';
import { FsBlobLayout } from '../../src/registry/blobs/fs-blob-layout.js';
import { FsBlobStore } from '../../src/registry/blobs/fs-blob-store.js';
import { digestOf } from '../../src/registry/content/digest.js';
import { blobStoreSuite, digest, failingStreamOf, readAll, streamOf } from './blob-store-suite.js';

const MiB = 1 << 20;

async function tempRoot(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-blobs-'));
  return { root: join(dir, 'registry'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Every path under `dir` with its permission bits. */
async function modes(dir: string): Promise<Map<string, { dir: boolean; mode: number }>> {
  const found = new Map<string, { dir: boolean; mode: number }>();
  const s = await stat(dir);
  found.set(dir, { dir: s.isDirectory(), mode: s.mode & 0o777 });
  if (s.isDirectory()) for (const name of await readdir(dir)) for (const [p, m] of await modes(join(dir, name))) found.set(p, m);
  return found;
}

if (process.env.BERTH_ENOSPC_ROOT) {
  await fullDisk(process.env.BERTH_ENOSPC_ROOT);
} else {
  blobStoreSuite('filesystem', async () => {
    const { root, cleanup } = await tempRoot();
    return { store: await FsBlobStore.open(root), reopen: () => FsBlobStore.open(root), cleanup };
  });

  describe('filesystem blob store', () => {
    it('shows no blob and resumes the upload from its last acknowledged append after a crash mid-append or mid-commit', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const layout = new FsBlobLayout(root);
      const bytes = randomBytes(3 * MiB);
      const store = await FsBlobStore.open(root);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, MiB)));
      // The process dies part way through the next chunk: the file holds some of it, never acknowledged nor truncated.
      await appendFile(layout.uploadData(id), randomBytes(12_345));
      const restarted = await FsBlobStore.open(root);
      assert.equal((await restarted.upload(id))!.size, MiB, 'only the acknowledged append counts');
      await assert.rejects(restarted.append(id, MiB + 12_345, streamOf(bytes.subarray(MiB + 12_345))), UploadOffsetError);
      await restarted.append(id, MiB, streamOf(bytes.subarray(MiB)));
      // The whole content is in the upload file but the commit never ran: still no blob.
      const again = await FsBlobStore.open(root);
      assert.equal(await again.stat(digest(bytes)), undefined);
      assert.equal(await again.read(digest(bytes)), undefined);
      assert.deepEqual(await collect(again.list()), []);
      await assert.rejects(again.commit(id, digest(randomBytes(8))), DigestMismatchError);
      assert.equal((await again.commit(id, digest(bytes))).size, bytes.length);
      assert.deepEqual(await readAll((await again.read(digest(bytes)))!), bytes);
    });

    it('keeps none of a failed append: the upload is where that append began', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const store = await FsBlobStore.open(root);
      const bytes = randomBytes(300_000);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, 100_000)));
      await assert.rejects(store.append(id, 100_000, failingStreamOf(bytes.subarray(100_000, 250_000))), /client went away/);
      assert.equal((await store.upload(id))!.size, 100_000);
      await assert.rejects(store.append(id, 100_000, streamOf(bytes.subarray(100_000)), 150_000), UploadTooLargeError);
      assert.equal((await store.upload(id))!.size, 100_000);
      assert.equal((await stat(new FsBlobLayout(root).uploadData(id))).size, 100_000);
      await store.append(id, 100_000, streamOf(bytes.subarray(100_000)));
      assert.equal((await store.commit(id, digest(bytes))).digest, digestOf(bytes));
    });

    it('clears what a crash between the rename and the cleanup of a commit left', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const layout = new FsBlobLayout(root);
      const bytes = randomBytes(100_000);
      const d = digest(bytes);
      const store = await FsBlobStore.open(root);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes));
      await mkdir(layout.blobDir(d), { recursive: true, mode: 0o700 });
      await rename(layout.uploadData(id), layout.blobFile(d)); // the commit's rename happened, then the crash
      const restarted = await FsBlobStore.open(root);
      assert.deepEqual(await readAll((await restarted.read(d))!), bytes);
      assert.equal(await restarted.upload(id), undefined);
      await assert.rejects(restarted.append(id, 100_000, streamOf(bytes)), { message: 'no such upload' });
      const left = await collect(restarted.uploads());
      assert.deepEqual(
        left.map((u) => [u.id, u.size]),
        [[id, 0]],
      );
      assert.ok(left[0].started instanceof Date);
      assert.equal(await restarted.cancel(id), true);
      assert.deepEqual(await readdir(layout.uploads), []);
      assert.deepEqual(await readAll((await restarted.read(d))!), bytes);
    });

    it('never replaces a stored blob: a second commit of its digest verifies, discards the upload and renews the time', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const layout = new FsBlobLayout(root);
      const store = await FsBlobStore.open(root);
      const bytes = randomBytes(50_000);
      const first = await store.createUpload();
      await store.append(first.id, 0, streamOf(bytes));
      await store.commit(first.id, digest(bytes));
      const before = await stat(layout.blobFile(digest(bytes)));
      const second = await store.createUpload();
      await store.append(second.id, 0, streamOf(bytes));
      await new Promise((r) => setTimeout(r, 20));
      const info = await store.commit(second.id, digest(bytes));
      const after = await stat(layout.blobFile(digest(bytes)));
      assert.equal(after.ino, before.ino, 'the same file');
      assert.ok(info.modified.getTime() > before.mtimeMs);
      assert.equal(await store.upload(second.id), undefined);
      assert.deepEqual(await readdir(layout.uploads), []);
    });

    it('lets one exclusive opener hold a root at a time, and any number of plain ones (gc) beside it', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const server = await FsBlobStore.open(root, { exclusive: true });
      await assert.rejects(FsBlobStore.open(root, { exclusive: true }), BlobRootInUseError);
      const gc = await FsBlobStore.open(root);
      assert.deepEqual(await collect(gc.list()), []);
      await server.close();
      const next = await FsBlobStore.open(root, { exclusive: true });
      await next.close();
    });

    it('lists only files named for their digest in the right place', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const layout = new FsBlobLayout(root);
      const store = await FsBlobStore.open(root);
      const bytes = randomBytes(10);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes));
      await store.commit(id, digest(bytes));
      const hex = digestOf(bytes).slice('sha256:'.length);
      const dir = join(layout.blobs, 'sha256', hex.slice(0, 2));
      await writeFile(join(dir, `${hex}.tmp`), 'x');
      await writeFile(join(dir, 'ff'.repeat(32)), 'x'); // a digest under the wrong prefix
      await mkdir(join(layout.blobs, 'md5', 'ab'), { recursive: true });
      await writeFile(join(layout.blobs, 'md5', 'ab', 'ab'.repeat(16)), 'x');
      assert.deepEqual(
        (await collect(store.list())).map((i) => i.digest),
        [digestOf(bytes)],
      );
    });

    it('creates directories 0700 and files 0600 whatever the umask', async (t) => {
      const { root, cleanup } = await tempRoot();
      t.after(cleanup);
      const umask = process.umask(0);
      t.after(() => process.umask(umask));
      const store = await FsBlobStore.open(root);
      const done = await store.createUpload();
      const bytes = randomBytes(5000);
      await store.append(done.id, 0, streamOf(bytes));
      await store.commit(done.id, digest(bytes, 'sha512'));
      const open = await store.createUpload();
      await store.append(open.id, 0, streamOf(bytes));
      const found = await modes(root);
      assert.equal(found.size, 10, [...found.keys()].join('\n')); // root, blobs/, sha512/, its prefix, the blob, uploads/, an upload, its data, start and size
      for (const [p, m] of found) assert.equal(m.mode, m.dir ? 0o700 : 0o600, `${p} is ${m.mode.toString(8)}`);
    });

    it('refuses appends and commits on a full disk, keeps the upload consistent and carries on once there is room', (t) => {
      if (spawnSync('unshare', ['-rm', 'true']).status !== 0) {
        t.skip('needs unshare -rm (user namespaces) to mount a small tmpfs');
        return;
      }
      const mount = mkdtempSync(join(tmpdir(), 'berth-enospc-'));
      t.after(() => rm(mount, { recursive: true, force: true }));
      mkdirSync(join(mount, 'fs'));
      const script = 'mount -t tmpfs -o size=8m,nr_inodes=64,mode=700 tmpfs "$1" && exec "$2" "$3"';
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', join(mount, 'fs'), process.execPath, import.meta.filename], {
        env: { ...process.env, BERTH_ENOSPC_ROOT: join(mount, 'fs') },
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.deepEqual(run.stdout.trim().split('\n'), [
        'append ENOSPC rolled back',
        'commit ENOSPC kept the upload',
        'create ENOSPC left nothing',
        'committed after room was made',
      ]);
    });
  });
}

/** Runs in the child, on an 8 MiB tmpfs with 64 inodes; prints one line per refusal it saw. */
async function fullDisk(mount: string): Promise<void> {
  const root = join(mount, 'registry');
  const store = await FsBlobStore.open(root);
  const bytes = randomBytes(2 * MiB);
  const { id } = await store.createUpload();
  await store.append(id, 0, streamOf(bytes));
  await assert.rejects(store.append(id, 2 * MiB, streamOf(randomBytes(16 * MiB))), { code: 'ENOSPC' });
  assert.equal((await store.upload(id))!.size, 2 * MiB);
  console.log('append ENOSPC rolled back');

  // Use up the inodes: the commit cannot make the blob's directory, nor can a new upload start.
  const fillers: string[] = [];
  for (let i = 0; ; i++) {
    const f = join(mount, `filler-${i}`);
    try {
      await writeFile(f, '');
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
      break;
    }
    fillers.push(f);
  }
  await assert.rejects(store.commit(id, digest(bytes)), { code: 'ENOSPC' });
  assert.equal((await store.upload(id))!.size, 2 * MiB);
  assert.equal(await store.stat(digest(bytes)), undefined);
  console.log('commit ENOSPC kept the upload');
  const before = await readdir(join(root, 'uploads'));
  await assert.rejects(store.createUpload(), { code: 'ENOSPC' });
  assert.deepEqual(await readdir(join(root, 'uploads')), before);
  console.log('create ENOSPC left nothing');

  await Promise.all(fillers.map((f) => rm(f)));
  assert.equal((await store.commit(id, digest(bytes))).size, 2 * MiB);
  assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
  console.log('committed after room was made');
}
