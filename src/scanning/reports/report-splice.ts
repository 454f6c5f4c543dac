// Re-matching after advisories changed, without re-matching whole images:
// for each image holding a changed (ecosystem, package) key, only its
// packages under a changed key are matched again — with one AdvisoryLookup
// for the whole step, so each changed key's advisories are read once however
// many images hold it — and their matches replace theirs in each stored report
// of the image; the rest of the report is kept as stored. Reports are stored
// by package (scanner-reports/berth-report-parts.ts): only the changed
// packages' parts are written, the others are neither read nor rewritten —
// the report's new digest is computed from the parts' small digests and its
// event from their ids and severities. The spliced report is the text a full
// re-match would write (berth-report.ts orders both alike). A report that
// cannot be spliced (written before parts, or past MAX_STORED_MATCHES) gets a
// full 'rematch' job, which rewrites it in parts.
// Each report is written over the generation it was read at: one rewritten
// meanwhile (a full re-match finished) is left as it is and its image queued
// for a full re-match, which reads the advisories after this change.
import { sql } from 'kysely';
import { nowIso } from '../../core/clock.js';
import { rootOf } from '../../core/uidp.js';
import type { Store } from '../../store/store.js';
import { statementChunks } from '../../store/statement-chunks.js';
import { transact } from '../../store/transact.js';
import { loadPackagesNamed } from '../inventories/stored-inventory.js';
import { enqueueScanJob } from '../jobs/enqueue-job.js';
import { AdvisoryLookup } from '../matching/advisory-lookup.js';
import { matchInventory } from '../matching/match-inventory.js';
import { lookupKeys } from '../matching/package-keys.js';
import { type BerthSpliceWrite, writeBerthSplices } from './write-berth-report.js';
import { type BerthReportPart, reportDigest } from '../scanner-reports/berth-report-parts.js';
import { berthVulnerabilities, MAX_STORED_MATCHES, reportParts } from './berth-report.js';
import { newestAdvisoryTime } from './advisory-time.js';
import { matchCount, type PartHead, pairsOf, sameParts, spliceParts } from './splice-parts.js';
import { REMATCH_JOB, reportScopes } from './rematch-job.js';

/** Images one transaction writes the reports of. */
const PAGE = 100;

export interface SpliceResult {
  /** Images holding a changed key that were looked at. */
  images: number;
  /** Reports rewritten (their matches changed). */
  written: number;
  /** Images queued for a full re-match instead. */
  queued: number;
}

/** `ecosystem \0 package`: how a changed key is named in the set spliceChangedKeys takes. */
export const changedKey = (ecosystem: string, pkg: string) => `${ecosystem}\u0000${pkg}`;

/**
 * The package names and types that cover every package a changed key may
 * name (a superset, narrowed by the packages' own keys): a key is a package's
 * name or source name, or its purl name (namespace, separator, name) of which
 * the name is a suffix; PyPI's keys are normalized names, so any PyPI package.
 */
function namesOf(keys: ReadonlySet<string>): { names: string[]; types: string[] } {
  const names = new Set<string>();
  const types = new Set<string>();
  for (const key of keys) {
    const at = key.indexOf('\u0000');
    const [ecosystem, name] = [key.slice(0, at), key.slice(at + 1)];
    if (ecosystem === 'pypi') types.add('pypi');
    names.add(name);
    for (let i = 0; i < name.length; i++) if (name[i] === '/' || name[i] === ':') names.add(name.slice(i + 1));
  }
  return { names: [...names], types: [...types] };
}

/** Splices the matches of the packages under `keys` into the reports of `digests`. */
export async function spliceChangedKeys(store: Store, keys: ReadonlySet<string>, digests: readonly string[], signal?: AbortSignal): Promise<SpliceResult> {
  const db = store.db;
  const result: SpliceResult = { images: 0, written: 0, queued: 0 };
  if (digests.length === 0) return result;
  // Read before matching: every report written is at least as new as this.
  const dbBuildTime = await newestAdvisoryTime(db);
  const scope = await reportScopes(store);
  const lookup = new AdvisoryLookup(db);
  const named = namesOf(keys);
  for (const page of statementChunks(digests, PAGE)) {
    signal?.throwIfAborted();
    // Only the packages a changed key may name: the others keep their parts, unread.
    const inventories = await loadPackagesNamed(db, page, named.names, named.types);
    const reports = await db
      .selectFrom('vuln_reports')
      .select(['id', 'repo_uid', 'digest', 'generation', 'raw_digest'])
      // Written by parts ('' in the column): the text itself is not read.
      .select(sql<number>`case when vulnerabilities = '' then 1 else 0 end`.as('parted'))
      .where('scanner_name', '=', 'BERTH')
      .where('digest', 'in', page)
      .orderBy('repo_uid')
      .execute();
    const reportsOf = new Map<string, typeof reports>();
    for (const r of reports) {
      const list = reportsOf.get(r.digest);
      if (list) list.push(r);
      else reportsOf.set(r.digest, [r]);
    }
    const stored = await storedParts(
      db,
      reports.filter((r) => Number(r.parted) === 1).map((r) => Number(r.id)),
    );
    // The packages each image holds under a changed key, and every key they are looked up under, read at once for the page.
    const affectedOf = new Map<string, Set<number>>();
    const wanted = new Map<string, Set<string>>();
    for (const [digest, inventory] of inventories) {
      const affected = new Set<number>();
      inventory.packages.forEach((p, i) => {
        const looked = lookupKeys(inventory.os, p);
        if (!looked.some((k) => keys.has(changedKey(k.ecosystem, k.package)))) return;
        affected.add(i);
        for (const k of looked) {
          const names = wanted.get(k.ecosystem);
          if (names) names.add(k.package);
          else wanted.set(k.ecosystem, new Set([k.package]));
        }
      });
      if (affected.size > 0) affectedOf.set(digest, affected);
    }
    await lookup.load(wanted);
    const writes: BerthSpliceWrite[] = [];
    const whole = new Set<string>();
    const now = nowIso();
    for (const digest of page) {
      const inventory = inventories.get(digest);
      const affected = affectedOf.get(digest);
      if (!inventory || !affected) continue;
      result.images++;
      const fresh = new Map<string, BerthReportPart[]>();
      for (const r of reportsOf.get(digest) ?? []) {
        const parts = stored.get(Number(r.id)) ?? [];
        if (Number(r.parted) !== 1 || matchCount(parts) >= MAX_STORED_MATCHES) {
          whole.add(digest);
          continue;
        }
        const org = rootOf(r.repo_uid);
        let added = fresh.get(org);
        if (!added) {
          added = reportParts(berthVulnerabilities(await matchInventory(db, inventory, { scope: scope(org), packages: affected, lookup })));
          fresh.set(org, added);
        }
        if (sameParts(parts, affected, added)) continue; // the changed packages' matches are as stored
        const after = spliceParts<PartHead>(parts, affected, added);
        const digestAfter = reportDigest(after);
        if (digestAfter === r.raw_digest) continue;
        if (matchCount(after) > MAX_STORED_MATCHES) {
          whole.add(digest);
          continue;
        }
        const matches = after.flatMap((p) => pairsOf(p).map(([id, severity]) => ({ id, severity })));
        const previousIds = parts.flatMap((p) => pairsOf(p).map(([id]) => id));
        writes.push({
          reportId: Number(r.id),
          repoUid: r.repo_uid,
          digest,
          body: { parts: added, replaced: parts.filter((p) => affected.has(p.packageIndex)).map((p) => p.packageIndex), digest: digestAfter, matches },
          expectGeneration: r.generation,
          previousIds,
        });
      }
    }
    const done = await transact(store, async (tx) => {
      const { written, conflicts } = await writeBerthSplices(tx, writes, { now, ...(dbBuildTime === undefined ? {} : { dbBuildTime }) });
      const again = new Set([...whole, ...conflicts]);
      let queued = 0;
      for (const digest of [...again].sort()) if (await enqueueScanJob(tx, REMATCH_JOB, digest, { again: true })) queued++;
      return { written, queued };
    });
    result.written += done.written;
    result.queued += done.queued;
  }
  return result;
}

/** The parts' heads of these reports, by report id, in package order. */
async function storedParts(db: Store['db'], ids: readonly number[]): Promise<Map<number, PartHead[]>> {
  const out = new Map<number, PartHead[]>();
  for (const chunk of statementChunks(ids)) {
    const rows = await db
      .selectFrom('berth_report_parts')
      .select(['report_id', 'package_index', 'digest', 'matches'])
      .where('report_id', 'in', chunk)
      .orderBy('report_id')
      .orderBy('package_index')
      .execute();
    for (const p of rows) {
      const id = Number(p.report_id);
      const head = { packageIndex: Number(p.package_index), digest: p.digest, matches: p.matches };
      const list = out.get(id);
      if (list) list.push(head);
      else out.set(id, [head]);
    }
  }
  return out;
}
