// Rotating the issuer's signing keys (berth admin signing-keys): a new key is
// added and signs from then on (every instance reads the ring again within
// the issuer's reload interval, issuer.ts), while the keys it replaces keep
// verifying until their retire time, so tokens and refresh tokens already
// handed out keep working. Retiring a key at once (after a leak) deletes it:
// no instance publishes or accepts it any more, and its private key is gone
// from the database. Works on the database itself, like recover-owner.
import type { KeyObject } from 'node:crypto';
import { nowIso } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { transact } from '../store/transact.js';
import { isSealed } from './secret-sealing.js';
import { liveKeyRows, newKeyRow, openAll } from './signing-keys.js';

export interface SigningKeyInfo {
  kid: string;
  algorithm: string;
  createTime: string;
  /** When it stops verifying; absent while it is not retiring. */
  retireTime?: string;
  /** Whether its private key is stored sealed with the secrets key. */
  sealed: boolean;
  /** The newest live key signs; the others only verify. */
  role: 'signing' | 'verifying';
}

/** Longer than any key id Berth makes (UUIDs): what `retire` accepts before it looks. */
const MAX_KID_LENGTH = 128;

/** Deletes the keys whose retire time has passed (nothing reads them again). */
async function deleteRetired(store: Store, now: string): Promise<number> {
  const r = await transact(store, (tx) => tx.deleteFrom('signing_keys').where('retire_time', '<=', now).executeTakeFirst());
  return Number(r.numDeletedRows);
}

export async function listSigningKeys(store: Store): Promise<SigningKeyInfo[]> {
  const rows = await liveKeyRows(store.db);
  return rows.map((r, i) => ({
    kid: r.kid,
    algorithm: r.algorithm,
    createTime: r.create_time,
    ...(r.retire_time === null ? {} : { retireTime: r.retire_time }),
    sealed: isSealed(r.private_jwk),
    role: i === rows.length - 1 ? 'signing' : 'verifying',
  }));
}

export interface RotateOptions {
  /** The secrets key the server runs with: the new key is sealed with it, and it must open the keys stored. */
  secrets?: KeyObject;
  /** How long the keys replaced keep verifying (0: they retire at once). */
  retireAfterMs: number;
}

export interface Rotation {
  kid: string;
  /** The keys replaced, with when they stop verifying. */
  retiring: { kid: string; retireTime: string }[];
  /** Keys whose retire time had passed, deleted now. */
  deleted: number;
}

export async function rotateSigningKey(store: Store, o: RotateOptions): Promise<Rotation> {
  const now = nowIso();
  const live = await liveKeyRows(store.db, now);
  // The same check the server makes at start: a wrong or missing secrets key stops here, before anything is written.
  openAll(live, o.secrets);
  const row = await newKeyRow(o.secrets);
  const retireTime = new Date(Date.parse(now) + o.retireAfterMs).toISOString();
  const retiring = live.filter((r) => r.retire_time === null || r.retire_time > retireTime).map((r) => ({ kid: r.kid, retireTime }));
  await transact(store, async (tx) => {
    await tx.insertInto('signing_keys').values(row).execute();
    if (retiring.length > 0)
      await tx
        .updateTable('signing_keys')
        .set({ retire_time: retireTime })
        .where(
          'kid',
          'in',
          retiring.map((r) => r.kid),
        )
        .execute();
  });
  const kept = live.filter((r) => !retiring.some((x) => x.kid === r.kid)).map((r) => ({ kid: r.kid, retireTime: r.retire_time as string }));
  return { kid: row.kid, retiring: [...kept, ...retiring], deleted: await deleteRetired(store, nowIso()) };
}

/** Retires `kid` at once (deleting it); refused for the only live key, which would leave nothing to sign with. */
export async function retireSigningKey(store: Store, kid: string): Promise<{ deleted: number }> {
  if (kid.length === 0 || kid.length > MAX_KID_LENGTH || kid.includes('\u0000')) {
    throw new Error(`a key id is 1 to ${MAX_KID_LENGTH} characters without NUL (berth admin signing-keys list shows them)`);
  }
  const now = nowIso();
  const live = await liveKeyRows(store.db, now);
  if (!live.some((r) => r.kid === kid)) {
    const known = live.map((r) => r.kid).join(', ') || 'none';
    throw new Error(`no live signing key has the id ${JSON.stringify(kid.slice(0, 100))} (live keys: ${known})`);
  }
  if (live.length === 1) throw new Error(`${kid} is the only live signing key: run \`berth admin signing-keys rotate\` first, then retire it`);
  await transact(store, (tx) => tx.updateTable('signing_keys').set({ retire_time: now }).where('kid', '=', kid).execute());
  return { deleted: await deleteRetired(store, now) };
}
