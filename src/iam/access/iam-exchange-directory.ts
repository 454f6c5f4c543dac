// IAM's answer to auth's ExchangeDirectory: the identities that may accept a
// token presented at /sts/exchange, found by uid or by exact issuer and
// subject (indexed columns; identities with patterns only by uid), their
// last-seen time and the verified email of the external token they last
// exchanged (the identity's email).
// The last-seen time is written at most once a minute per identity and
// instance: a CI fleet exchanging for one identity would otherwise make every
// exchange a write, where a minute's precision is all the field promises.
import type { ExchangeCandidate, ExchangeDirectory } from '../../auth/access-directory.js';
import { nowIso } from '../../core/clock.js';
import { setRecent } from '../../core/recent-map.js';
import type { Store } from '../../store/store.js';
import { afterCommit, type Tx } from '../../store/transact.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import { readTableVersions } from '../../store/table-versions.js';
import { loadRelationship } from '../identities/relationship.js';

const CANDIDATES_BY_UID = compiledQuery('exchange candidates by uid');
const CANDIDATES_BY_ISSUER = compiledQuery('exchange candidates by issuer and subject');
const IDENTITY_SEEN = compiledQuery('identity seen');
const IDENTITY_SEEN_WITH_EMAIL = compiledQuery('identity seen with email');

type CandidateRow = Parameters<typeof loadRelationship>[0] & { uid: string };

/** How long a written last-seen time stands for later exchanges of the same identity (and email). */
const SEEN_INTERVAL_MS = 60_000;
/** Identities whose last write is remembered; the oldest is forgotten first (and simply written again). */
const SEEN_LIMIT = 10_000;
/** Candidate lists kept, and the longest query they are kept for. */
const FOUND_LIMIT = 1_000;
const MAX_CACHED_KEY = 1_024;

export class IamExchangeDirectory implements ExchangeDirectory {
  /** Candidates by query, with the identities table version they were read at; oldest first. */
  private readonly found = new Map<string, { version: string; candidates: ExchangeCandidate[] }>();
  /** uid → when its last-seen time (and email) were committed, oldest first. */
  private readonly seen = new Map<string, { at: number; email: string | undefined }>();

  constructor(private readonly store: Store) {}

  seenRecently(uid: string, verifiedEmail?: string): boolean {
    const last = this.seen.get(uid);
    if (last === undefined) return false;
    if (Date.now() - last.at < SEEN_INTERVAL_MS && (verifiedEmail === undefined || verifiedEmail === last.email)) return true;
    this.seen.delete(uid);
    return false;
  }

  /**
   * The candidates, reused while the identities table is unchanged (its
   * version, read per request like the access directory's: any write to it,
   * by any instance, shows on the next exchange). A CI fleet presents the same
   * issuer and subject, or identity, again and again; the query and the
   * decoding of each relationship were a large share of an exchange's CPU
   * (docs/performance.md).
   */
  async candidates(q: { identity: string; issuer: string; subject: string }, limit: number): Promise<ExchangeCandidate[]> {
    const version = (await readTableVersions(this.store.db)).get('identities') ?? '';
    // Issuer and subject come from a token nobody has verified yet: only short keys are kept, so the cache stays small.
    const key = `${limit}\u0000${q.identity}\u0000${q.issuer}\u0000${q.subject}`;
    const cacheable = key.length <= MAX_CACHED_KEY;
    const hit = cacheable ? this.found.get(key) : undefined;
    if (hit && hit.version === version) return hit.candidates;
    const candidates = await this.queryCandidates(q, limit);
    if (cacheable) setRecent(this.found, key, { version, candidates }, FOUND_LIMIT);
    return candidates;
  }

  // Compiled once per shape (store/compiled-queries.ts): building these on
  // every exchange was a visible share of its CPU (docs/performance.md).
  private async queryCandidates(q: { identity: string; issuer: string; subject: string }, limit: number): Promise<ExchangeCandidate[]> {
    const db = this.store.db;
    const columns = ['uid', 'relationship_type', 'relationship'] as const;
    const rows =
      q.identity !== ''
        ? await runCompiled<CandidateRow>(db, CANDIDATES_BY_UID, [q.identity, limit], ([uid, n]) =>
            db
              .selectFrom('identities')
              .select(columns)
              .where('uid', '=', uid as string)
              .orderBy('uid')
              .limit(n as number),
          )
        : // Without a uid: only the exact issuer and subject. Identities with
          // patterns (their column is then '') are not candidates: every such
          // identity on the server, of any organization, would be one, and
          // enough of them made every exchange without identity= fail.
          await runCompiled<CandidateRow>(db, CANDIDATES_BY_ISSUER, [q.issuer, q.subject, limit], ([iss, sub, n]) =>
            db
              .selectFrom('identities')
              .select(columns)
              .where('issuer', '=', iss as string)
              .where('subject', '=', sub as string)
              .orderBy('uid')
              .limit(n as number),
          );
    return rows.map((r) => ({ uid: r.uid, relationship: loadRelationship(r) }));
  }

  async markSeen(tx: Tx, uid: string, verifiedEmail?: string): Promise<void> {
    const now = nowIso();
    afterCommit(tx, () => setRecent(this.seen, uid, { at: Date.now(), email: verifiedEmail }, SEEN_LIMIT));
    if (verifiedEmail === undefined) {
      await runCompiled(tx, IDENTITY_SEEN, [uid, now], ([u, t]) =>
        tx
          .updateTable('identities')
          .set({ last_seen_time: t as string })
          .where('uid', '=', u as string),
      );
      return;
    }
    await runCompiled(tx, IDENTITY_SEEN_WITH_EMAIL, [uid, now, verifiedEmail], ([u, t, e]) =>
      tx
        .updateTable('identities')
        .set({ last_seen_time: t as string, email: e as string })
        .where('uid', '=', u as string),
    );
  }
}
