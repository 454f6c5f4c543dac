// One step of following the advisory change log (advisory_changes, appended
// by the range writer in the transaction of each advisory write): the changes
// after the shared cursor, the inventories holding a changed (ecosystem,
// package) key (scan_inventory_keys), their reports spliced with the changed
// packages' new matches (report-splice.ts), and then the cursor moved. The
// cursor moves only after the reports are written, and only from where this
// step read it (a compare-and-set): a crash repeats the step, and two
// instances taking the same step write each report once (the second finds it
// current), so nothing is lost and nothing is told twice.
//
// On PostgreSQL the log's ids come from a sequence, taken when a transaction
// inserts and visible when it commits, so an id can appear after a larger one
// was read. An id missing below the largest read is kept as a gap and looked
// for again at each step until GAP_WAIT_MS passed (a rolled-back
// transaction's id never comes).
import type { Store } from '../../store/store.js';
import { statementChunks } from '../../store/statement-chunks.js';
import { type Executor, transact } from '../../store/transact.js';
import { type AdvisoryChange, readAdvisoryChanges } from '../../vulnerabilities/affected/advisory-changes.js';
import { changedKey, spliceChangedKeys } from './report-splice.js';

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
  /** Images holding a changed key. */
  images: number;
  /** Reports rewritten. */
  written: number;
  /** Images queued for a full re-match (reports that could not be spliced). */
  queued: number;
  /** Whether more changes may be waiting (a full batch was read). */
  more: boolean;
}

interface Cursor {
  position: number;
  gaps: Gap[];
  /** The gaps as stored: what the compare-and-set compares. */
  gapsText: string;
}

async function readCursor(store: Store): Promise<Cursor> {
  const read = () => store.db.selectFrom('scan_cursors').select(['position', 'gaps']).where('name', '=', ADVISORY_CURSOR).executeTakeFirst();
  let row = await read();
  if (!row) {
    // From the start of the log: an image matched before this row existed may have read advisories older than a change.
    await transact(store, (tx) =>
      tx
        .insertInto('scan_cursors')
        .values({ name: ADVISORY_CURSOR, position: 0, gaps: '[]', update_time: new Date().toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute(),
    );
    row = await read();
  }
  const gapsText = row?.gaps ?? '[]';
  let gaps: Gap[] = [];
  try {
    gaps = JSON.parse(gapsText) as Gap[];
  } catch {
    gaps = [];
  }
  // PostgreSQL returns bigint as a string.
  return { position: Number(row?.position ?? 0), gaps, gapsText };
}

/** The digests of the inventories holding any of the changed keys. */
async function holders(db: Executor, changes: readonly AdvisoryChange[]): Promise<Set<string>> {
  const byEcosystem = new Map<string, Set<string>>();
  for (const c of changes) {
    const names = byEcosystem.get(c.ecosystem) ?? new Set<string>();
    names.add(c.package);
    byEcosystem.set(c.ecosystem, names);
  }
  const digests = new Set<string>();
  for (const [ecosystem, names] of byEcosystem)
    for (const part of statementChunks([...names], NAME_CHUNK))
      for (const r of await db
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
export async function followAdvisoryChanges(store: Store, now = Date.now(), signal?: AbortSignal): Promise<CursorStep> {
  const db = store.db;
  const cur = await readCursor(store);
  const changes = await readAdvisoryChanges(db, cur.position, BATCH);
  const arrived: AdvisoryChange[] = [];
  for (const part of statementChunks(
    cur.gaps.map((g) => g.id),
    NAME_CHUNK,
  ))
    for (const r of await db.selectFrom('advisory_changes').select(['id', 'ecosystem', 'package', 'change_time']).where('id', 'in', part).execute())
      arrived.push({ id: Number(r.id), ecosystem: r.ecosystem, package: r.package, changeTime: r.change_time });
  const handled = [...changes, ...arrived];

  const digests = [...(await holders(db, handled))].sort();
  const spliced = await spliceChangedKeys(store, new Set(handled.map((c) => changedKey(c.ecosystem, c.package))), digests, signal);

  const found = new Set(arrived.map((c) => c.id));
  const gaps = cur.gaps.filter((g) => !found.has(g.id) && now - g.seen < GAP_WAIT_MS);
  let position = cur.position;
  for (const c of changes) {
    for (let id = position + 1; id < c.id && gaps.length < MAX_GAPS * 2; id++) gaps.push({ id, seen: now });
    position = c.id;
  }
  gaps.sort((a, b) => b.seen - a.seen || a.id - b.id);
  const kept = gaps.slice(0, MAX_GAPS);
  const moved = await transact(store, (tx) =>
    tx
      .updateTable('scan_cursors')
      .set({ position, gaps: JSON.stringify(kept), update_time: new Date(now).toISOString() })
      .where('name', '=', ADVISORY_CURSOR)
      .where('position', '=', cur.position)
      .where('gaps', '=', cur.gapsText)
      .executeTakeFirst(),
  );
  // Another instance took this step meanwhile: its cursor stands, and the next step starts from it.
  const mine = Number(moved.numUpdatedRows) > 0;
  return { changes: handled.length, images: spliced.images, written: spliced.written, queued: spliced.queued, more: !mine || changes.length === BATCH };
}
