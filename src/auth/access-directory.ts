// What authentication and authorization need to know about identities, as an
// interface the IAM domain implements (src/iam/access/). Auth reads no IAM
// table: it asks whether a token's identity still exists, for its grants, and
// — for /sts/exchange and the registry's pull tokens — which identities may
// accept a presented token.
import type { Tx } from '../store/transact.js';
import type { Identity } from '../gen/berth/iam/v2/identities_pb.js';
import type { TableVersions } from '../store/table-versions.js';
import type { Grants } from './grants.js';

/** One identity's access as of this request. */
export interface AccessState {
  exists: boolean;
  /** Every table's version as this request read it: other caches (list totals) check against it instead of reading again. */
  versions: TableVersions;
  grants(): Promise<Grants>;
}

export interface AccessDirectory {
  /** Current state: a deleted identity or a changed binding shows on the very next call, on every instance. */
  load(identityUid: string): Promise<AccessState>;
}

export interface ExchangeCandidate {
  uid: string;
  relationship: Identity['relationship'];
}

export interface ExchangeDirectory {
  /** The identity named by uid, or else those whose exact issuer and subject are the token's (at most `limit`); identities with patterns only by uid. */
  candidates(q: { identity: string; issuer: string; subject: string }, limit: number): Promise<ExchangeCandidate[]>;
  /** Records, with the exchange's transaction, that the identity just exchanged a token, and the verified email that token carried, if any. */
  markSeen(tx: Tx, uid: string, verifiedEmail?: string): Promise<void>;
  /** Whether markSeen(uid, verifiedEmail) committed here so recently that it need not be written again. */
  seenRecently(uid: string, verifiedEmail?: string): boolean;
}
