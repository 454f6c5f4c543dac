// What /readyz checks of a runtime (src/http/readyz.ts): the database answers
// a read, every migration this code knows has run (another instance may be
// migrating a shared database), and the blob store answers.
import type { ReadinessCheck } from '../http/readyz.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import { parseDigest } from '../registry/content/digest.js';
import { pendingMigrations } from '../store/migrate.js';
import type { Store } from '../store/store.js';

// A digest no blob has: stat answers "absent" when the store is reachable, and throws when it is not.
const ABSENT_DIGEST = parseDigest(`sha256:${'0'.repeat(64)}`);

export function readinessChecks(store: Store, probe: () => Promise<void>, blobs: BlobStore | undefined): ReadinessCheck[] {
  // Forward-only: once none is pending for this code, none will be.
  let migrated = false;
  const checks: ReadinessCheck[] = [
    { name: 'database', check: probe },
    {
      name: 'migrations',
      check: async () => {
        if (migrated) return;
        const pending = await pendingMigrations(store);
        if (pending.length > 0) throw new Error(`pending migrations: ${pending.join(', ')}`);
        migrated = true;
      },
    },
  ];
  if (blobs && ABSENT_DIGEST) checks.push({ name: 'blob_store', check: async () => void (await blobs.stat(ABSENT_DIGEST)) });
  return checks;
}
