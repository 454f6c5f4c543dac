// One step of following the advisory change log (advisory_changes, appended
// by the range writer in the transaction of each advisory write): the changes
// after the shared cursor, the inventories holding a changed (ecosystem,
// package) key (scan_inventory_keys), a 'rematch' job queued for each
// (deduplicated: one job row per digest), and the cursor moved — all in one
// transaction, so a crash loses nothing and repeats nothing, and every
// instance shares one cursor (its row is locked for the step).
//
// On PostgreSQL the log's ids come from a sequence, taken when a transaction
// inserts and visible when it commits, so an id can appear after a larger one
// was read. An id missing below the largest read is kept as a gap and looked
// for again at each step until GAP_WAIT_MS passed (a rolled-back
// transaction's id never comes).
import type { Store } from '../../store/store.js';
import { statementChunks } from '../../store/statement-chunks.js';
import { transact, type Tx } from '../../store/transact.js';
import { type AdvisoryChange, readAdvisoryChanges } from '../../vulnerabilities/affected/advisory-changes.js';
import { enqueueScanJob } from '../jobs/enqueue-job.js';
import { REMATCH_JOB } from './rematch-job.js';

export const ADVISORY_CURSOR = 'advisory-changes';
/** Changes one step reads. */
const BATCH = 1_000;
/** How long an id missing below the cursor is awaited. */
export const GAP_WAIT_MS = 10 * 60_000;
/** Gaps kept; past it the oldest are given up. */
const MAX_GAPS = 1_000;
const NAME_CHUNK = 500;

interface Gap {
  id: number;
  /** When it was first missed (ms since the epoch). */
  seen: number;
}

export interface CursorStep {
  /** Changes handled. */
  changes: number;
  /** Images queued for a re-match. */
  queued: number;
  /** Whether more changes may be waiting (a full batch was read). */
  more: boolean;
}

async function lockedCursor(tx: Tx, store: Store): Promise<{ position: number; gaps: Gap[] }> {
  const read = () =>
    store.caps.lockRows(tx.selectFrom('scan_cursors').select(['position', 'gaps']).where('name', '=', ADVISORY_CURSOR), 'exclusive').executeTakeFirst();
  let row = await read();
  if (!row) {
    // From the start of the log: an image matched before this row existed may have read advisories older than a change.
    await tx
      .insertInto('scan_cursors')
      .values({ name: ADVISORY_CURSOR, position: 0, gaps: '[]', update_time: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await read();
  }
  let gaps: Gap[] = [];
  try {
    gaps = JSON.parse(row?.gaps ?? '[]') as Gap[];
  } catch {
    gaps = [];
  }
  // PostgreSQL returns bigint as a string.
  return { position: Number(row?.position ?? 0), gaps };
}

/** The digests of the inventories holding any of the changed keys. */
async function holders(tx: Tx, changes: readonly AdvisoryChange[]): Promise<Set<string>> {
  const byEcosystem = new Map<string, Set<string>>();
  for (const c of changes) {
    const names = byEcosystem.get(c.ecosystem) ?? new Set<string>();
    names.add(c.package);
    byEcosystem.set(c.ecosystem, names);
  }
  const digests = new Set<string>();
  for (const [ecosystem, names] of byEcosystem)
    for (const part of statementChunks([...names], NAME_CHUNK))
      for (const r of await tx
        .selectFrom('scan_inventory_keys')
        .select('digest')
        .distinct()
        .where('ecosystem', '=', ecosystem)
        .where('package', 'in', part)
        .execute())
        digests.add(r.digest);
  return digests;
}

/** Whether the log has anything the cursor has not handled (no lock: a cheap probe before a step). */
export async function advisoryChangesPending(store: Store): Promise<boolean> {
  const cur = await store.db.selectFrom('scan_cursors').select(['position', 'gaps']).where('name', '=', ADVISORY_CURSOR).executeTakeFirst();
  if (cur && cur.gaps !== '[]') return true;
  const next = await readAdvisoryChanges(store.db, Number(cur?.position ?? 0), 1);
  return next.length > 0;
}

/** Handles up to BATCH changes after the cursor (and any gaps that arrived). */
export async function followAdvisoryChanges(store: Store, now = Date.now()): Promise<CursorStep> {
  return transact(store, async (tx) => {
    const cur = await lockedCursor(tx, store);
    const changes = await readAdvisoryChanges(tx, cur.position, BATCH);
    const gapIds = cur.gaps.map((g) => g.id);
    const arrived: AdvisoryChange[] = [];
    for (const part of statementChunks(gapIds, NAME_CHUNK))
      for (const r of await tx.selectFrom('advisory_changes').select(['id', 'ecosystem', 'package', 'change_time']).where('id', 'in', part).execute())
        arrived.push({ id: Number(r.id), ecosystem: r.ecosystem, package: r.package, changeTime: r.change_time });
    const handled = [...changes, ...arrived];

    let queued = 0;
    for (const digest of await holders(tx, handled)) if (await enqueueScanJob(tx, REMATCH_JOB, digest, { again: true })) queued++;

    const found = new Set(arrived.map((c) => c.id));
    const gaps = cur.gaps.filter((g) => !found.has(g.id) && now - g.seen < GAP_WAIT_MS);
    let position = cur.position;
    for (const c of changes) {
      for (let id = position + 1; id < c.id && gaps.length < MAX_GAPS * 2; id++) gaps.push({ id, seen: now });
      position = c.id;
    }
    gaps.sort((a, b) => b.seen - a.seen || a.id - b.id);
    const kept = gaps.slice(0, MAX_GAPS);
    await tx
      .updateTable('scan_cursors')
      .set({ position, gaps: JSON.stringify(kept), update_time: new Date(now).toISOString() })
      .where('name', '=', ADVISORY_CURSOR)
      .execute();
    return { changes: handled.length, queued, more: changes.length === BATCH };
  });
}
