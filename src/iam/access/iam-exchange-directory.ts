// IAM's answer to auth's ExchangeDirectory: the identities that may accept a
// token presented at /sts/exchange, found by uid or by exact issuer and
// subject (indexed columns) plus the claimMatch identities with patterns, their last-seen time and the verified email of
// the external token they last exchanged (the identity's email).
import type { ExchangeCandidate, ExchangeDirectory } from '../../auth/access-directory.js';
import { nowIso } from '../../core/clock.js';
import type { Store } from '../../store/store.js';
import type { Tx } from '../../store/transact.js';
import { loadRelationship } from '../identities/relationship.js';

export class IamExchangeDirectory implements ExchangeDirectory {
  constructor(private readonly store: Store) {}

  async candidates(q: { identity: string; issuer: string; subject: string }, limit: number): Promise<ExchangeCandidate[]> {
    let query = this.store.db.selectFrom('identities').select(['uid', 'relationship_type', 'relationship']);
    // Without a uid: the exact issuer and subject, and the claimMatch identities
    // that match the issuer or subject by pattern (their column is then '').
    query =
      q.identity !== ''
        ? query.where('uid', '=', q.identity)
        : query.where((eb) =>
            eb.or([
              eb.and([eb('issuer', '=', q.issuer), eb('subject', '=', q.subject)]),
              eb.and([
                eb('relationship_type', '=', 'claim_match'),
                eb.or([eb('issuer', '=', ''), eb.and([eb('issuer', '=', q.issuer), eb('subject', '=', '')])]),
              ]),
            ]),
          );
    const rows = await query.orderBy('uid').limit(limit).execute();
    return rows.map((r) => ({ uid: r.uid, relationship: loadRelationship(r) }));
  }

  async markSeen(tx: Tx, uid: string, verifiedEmail?: string): Promise<void> {
    const changes = verifiedEmail === undefined ? { last_seen_time: nowIso() } : { last_seen_time: nowIso(), email: verifiedEmail };
    await tx.updateTable('identities').set(changes).where('uid', '=', uid).execute();
  }
}
