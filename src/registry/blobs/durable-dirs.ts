// Directory durability for the filesystem blob store: a rename or a new file
// survives a crash only once the directory holding its entry is fsynced.
// Directories are created 0700 (blob bytes are private to Berth's user).
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** mkdir -p with mode 0700; fsyncs the parent of every directory it created. */
export async function makeDirs(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    await syncDir(dirname(d));
    if (d === first || dirname(d) === d) return;
  }
}
