// Writes a batch of imported files into the store, fast and idempotently: the
// rows of a batch are diffed against what is stored (one query per few hundred
// advisories, not one per advisory), then written with multi-row statements.
// An advisory's uid comes from its identity and an event's from its content,
// so a re-import finds everything in place and writes nothing; an event is
// never rewritten (a changed event is a new one; the old one goes only with
// --prune). update_time moves only when something changed.
import { ReviewState } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import type { Tx } from '../../store/transact.js';
import { advisoryUid, eventUid } from '../advisory-ids.js';
import { advisoryRow, eventRow } from '../advisory-rows.js';
import type { AdvisoriesTable, AdvisoryEventsTable } from '../advisory-tables.js';
import type { NormalizedAdvisory } from './normalized-advisory.js';
import { statementChunks } from '../../store/statement-chunks.js';
import type { AdvisoryAffected } from '../affected/affected-ranges.js';
import { forgetRanges, type PackageKey, refreshRanges, diffAffected } from '../affected/range-writer.js';

/** Rows per statement: under SQLite's 32766 and PostgreSQL's 65535 bound parameters. */
const ADVISORY_CHUNK = 500;
const EVENT_CHUNK = 1000;
const KEY_CHUNK = 500;

export interface WriteContext {
  group: string;
  /** advisories.source: the format name. */
  source: string;
  /** Author of the imported events ("import:<format>"): only these are pruned. */
  author: string;
  /** Delete stored imported events of a written advisory that the input no longer has. */
  pruneEvents: boolean;
  now: string;
  /** Advisory uids written by earlier (committed) batches of this run (a second file naming the same advisory adds to it, never prunes it). */
  written: ReadonlySet<string>;
}

export interface FileCounts {
  file: string;
  added: number;
  changed: number;
  unchanged: number;
  /** Skipped as unchanged since the last import (hash match). */
  skipped: boolean;
}

export interface BatchResult {
  files: FileCounts[];
  /** Advisory uids this batch wrote: the caller adds them to `written` once the batch committed (a transaction run again must see `written` as it was). */
  written: string[];
  eventsAdded: number;
  eventsRemoved: number;
  /** The (ecosystem, package) keys whose range rows this batch changed (also appended to advisory_changes). */
  packages: PackageKey[];
}

interface Produced {
  row: AdvisoriesTable;
  file: string;
  events: Map<string, AdvisoryEventsTable>;
  affected: AdvisoryAffected | undefined;
}

/** What a withdrawn advisory matches: nothing, until its record comes back. */
const WITHDRAWN: AdvisoryAffected = { ecosystem: '', package: '', intervals: [], withdrawn: true };

interface StoredEvent {
  uid: string;
  advisory_uid: string;
  create_time: string;
  type: number;
  review_state: number;
  author: string;
}

/** EventTypeFilter number of the newest approved event (create_time, then uid); 0 when none. */
function latestType(events: Iterable<{ uid: string; create_time: string; type: number; review_state: number }>): number {
  let best: { uid: string; create_time: string; type: number } | undefined;
  for (const e of events) {
    if (e.review_state !== ReviewState.APPROVED) continue;
    if (!best || e.create_time > best.create_time || (e.create_time === best.create_time && e.uid > best.uid)) best = e;
  }
  return best?.type ?? 0;
}

/** The columns a re-import may change (the others make up the uid). */
const COMPARED = [
  'parent_uid',
  'advisory_id',
  'legacy_advisory_id',
  'origin',
  'package_namespace',
  'author',
  'artifact_type',
  'component_type',
  'aliases',
  'search',
  'source',
  'source_file',
] as const satisfies readonly (keyof AdvisoriesTable)[];

function produce(ctx: WriteContext, file: string, a: NormalizedAdvisory): Produced {
  const uid = advisoryUid(ctx.group, a);
  const events = new Map<string, AdvisoryEventsTable>();
  for (const e of a.events) {
    const row = eventRow(uid, '', e, ctx.now);
    row.uid = eventUid(uid, row.content_hash);
    events.set(row.uid, row);
  }
  const aliases = [...new Set(a.aliases)].sort();
  let created = ctx.now;
  for (const e of events.values()) if (e.create_time < created) created = e.create_time;
  return {
    file,
    events,
    affected: a.affected,
    row: advisoryRow(
      { ...a, aliases },
      {
        uid,
        group: ctx.group,
        source: ctx.source,
        sourceFile: file,
        latestEventType: latestType(events.values()),
        // When the advisory came to be: its oldest event (the same in every import), else now.
        createTime: created,
        updateTime: ctx.now,
      },
    ),
  };
}

/**
 * Writes the advisories of `files` (parsed, changed files) inside `tx`;
 * returns per-file counts. Advisories produced twice in the batch merge
 * (the later file's columns, both files' events).
 */
export async function writeBatch(
  tx: Tx,
  ctx: WriteContext,
  files: readonly { file: string; advisories: readonly NormalizedAdvisory[] }[],
): Promise<BatchResult> {
  const produced = new Map<string, Produced>();
  for (const f of files) {
    for (const a of f.advisories) {
      const p = produce(ctx, f.file, a);
      const prior = produced.get(p.row.uid);
      if (prior) for (const [uid, e] of prior.events) if (!p.events.has(uid)) p.events.set(uid, e);
      if (prior && !p.affected) p.affected = prior.affected;
      produced.set(p.row.uid, p);
    }
  }
  const uids = [...produced.keys()];
  const stored = new Map<string, AdvisoriesTable>();
  const storedEvents = new Map<string, StoredEvent[]>();
  for (const part of statementChunks(uids, KEY_CHUNK)) {
    for (const r of await tx.selectFrom('advisories').selectAll().where('uid', 'in', part).execute()) stored.set(r.uid, r);
    const rows = await tx
      .selectFrom('advisory_events')
      .select(['uid', 'advisory_uid', 'create_time', 'type', 'review_state', 'author'])
      .where('advisory_uid', 'in', part)
      .execute();
    for (const e of rows) {
      const list = storedEvents.get(e.advisory_uid);
      if (list) list.push(e);
      else storedEvents.set(e.advisory_uid, [e]);
    }
  }

  // A changed file that no longer yields an advisory it wrote (an OSV record now withdrawn, a package
  // dropped from a record): the advisory stays until --prune, but matches nothing.
  const withdrawn: string[] = [];
  for (const part of statementChunks(
    files.map((f) => f.file),
    KEY_CHUNK,
  )) {
    const rows = await tx
      .selectFrom('advisories')
      .select('uid')
      .where('source', '=', ctx.source)
      .where('source_file', 'in', part)
      .where('parent_uid', '=', ctx.group)
      .execute();
    for (const r of rows) if (!produced.has(r.uid) && !ctx.written.has(r.uid)) withdrawn.push(r.uid);
  }
  const affectedData = new Map<string, AdvisoryAffected | undefined>();
  for (const [uid, p] of produced) affectedData.set(uid, p.affected);
  for (const uid of withdrawn) affectedData.set(uid, WITHDRAWN);
  const affectedDiff = await diffAffected(tx, affectedData);
  const affectedChanged = new Set(affectedDiff.changed);

  const counts = new Map<string, FileCounts>();
  for (const f of files) counts.set(f.file, { file: f.file, added: 0, changed: 0, unchanged: 0, skipped: false });
  const inserts: AdvisoriesTable[] = [];
  const updates: AdvisoriesTable[] = [];
  const aliasRewrites: AdvisoriesTable[] = [];
  const newEvents: AdvisoryEventsTable[] = [];
  const goneEvents: string[] = [];
  for (const [uid, p] of produced) {
    const c = counts.get(p.file)!;
    const old = stored.get(uid);
    if (!old) {
      inserts.push(p.row);
      aliasRewrites.push(p.row);
      for (const e of p.events.values()) newEvents.push(e);
      c.added++;
      continue;
    }
    const have = storedEvents.get(uid) ?? [];
    const haveUids = new Set(have.map((e) => e.uid));
    const added = [...p.events.values()].filter((e) => !haveUids.has(e.uid));
    const pruneHere = ctx.pruneEvents && !ctx.written.has(uid);
    const removed = pruneHere ? have.filter((e) => e.author === ctx.author && !p.events.has(e.uid)).map((e) => e.uid) : [];
    const removedSet = new Set(removed);
    const kept = have.filter((e) => !removedSet.has(e.uid));
    const latest = latestType([...kept, ...added]);
    const columnsChanged = COMPARED.some((k) => old[k] !== p.row[k]);
    if (!columnsChanged && added.length === 0 && removed.length === 0 && latest === old.latest_event_type && !affectedChanged.has(uid)) {
      c.unchanged++;
      continue;
    }
    c.changed++;
    const row = { ...p.row, create_time: old.create_time, latest_event_type: latest };
    updates.push(row);
    if (old.aliases !== row.aliases) aliasRewrites.push(row);
    newEvents.push(...added);
    goneEvents.push(...removed);
  }

  for (const part of statementChunks(inserts, ADVISORY_CHUNK)) await tx.insertInto('advisories').values(part).execute();
  for (const row of updates) {
    const { uid, create_time: _c, ...set } = row;
    await tx.updateTable('advisories').set(set).where('uid', '=', uid).execute();
  }
  const rewritten = aliasRewrites.filter((r) => stored.has(r.uid)).map((r) => r.uid);
  for (const part of statementChunks(rewritten, KEY_CHUNK)) await tx.deleteFrom('advisory_aliases').where('advisory_uid', 'in', part).execute();
  const aliasRows = aliasRewrites.flatMap((r) => (JSON.parse(r.aliases) as string[]).map((alias) => ({ advisory_uid: r.uid, alias })));
  for (const part of statementChunks(aliasRows, EVENT_CHUNK)) await tx.insertInto('advisory_aliases').values(part).execute();
  for (const part of statementChunks(goneEvents, KEY_CHUNK)) await tx.deleteFrom('advisory_events').where('uid', 'in', part).execute();
  for (const part of statementChunks(newEvents, EVENT_CHUNK)) await tx.insertInto('advisory_events').values(part).execute();
  await affectedDiff.write();
  // Range rows follow the advisory in the same transaction: every advisory whose columns, events or record data changed.
  const fresh = inserts.map((row) => {
    const p = produced.get(row.uid)!;
    return { row, affected: p.affected, events: p.events.values() };
  });
  const inserted = new Set(inserts.map((r) => r.uid));
  const touched = [...updates.map((r) => r.uid), ...affectedChanged].filter((uid) => !inserted.has(uid));
  const packages = await refreshRanges(tx, touched, { fresh });
  return { files: [...counts.values()], written: uids, eventsAdded: newEvents.length, eventsRemoved: goneEvents.length, packages };
}

/**
 * --prune: deletes the import group's advisories of `source` that this run
 * neither wrote nor kept (a skipped, unchanged file keeps its own); returns
 * how many went. Their aliases and events go with them (foreign keys cascade).
 */
export async function pruneAdvisories(tx: Tx, group: string, source: string, written: ReadonlySet<string>, keptFiles: ReadonlySet<string>): Promise<number> {
  const rows = await tx.selectFrom('advisories').select(['uid', 'source_file']).where('parent_uid', '=', group).where('source', '=', source).execute();
  const gone = rows.filter((r) => !written.has(r.uid) && !keptFiles.has(r.source_file)).map((r) => r.uid);
  await forgetRanges(tx, gone);
  for (const part of statementChunks(gone, KEY_CHUNK)) {
    // Children first: not every database enforces the cascades (SQLite's foreign keys are per connection).
    await tx.deleteFrom('advisory_events').where('advisory_uid', 'in', part).execute();
    await tx.deleteFrom('advisory_aliases').where('advisory_uid', 'in', part).execute();
    await tx.deleteFrom('advisories').where('uid', 'in', part).execute();
  }
  return gone.length;
}
