// Small shared values every instance must agree on (page-token key, bootstrap
// marker), and what the last server start said about itself (its public URL).
import { randomBytes } from 'node:crypto';
import type { Store } from './store.js';

/** The public URL of the API, as the server last started says it (--public-url, or http://<listen>). */
export const PUBLIC_URL_SETTING = 'public-url';

export async function getSetting(store: Store, key: string): Promise<string | undefined> {
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` unless the key exists; returns what is stored after the race. */
export async function putSettingOnce(store: Store, key: string, value: string): Promise<string> {
  await store.db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await getSetting(store, key);
  if (stored === undefined) throw new Error(`setting ${key} vanished`);
  return stored;
}

/** Stores `value` under `key`, replacing what was there. */
export async function putSetting(store: Store, key: string, value: string): Promise<void> {
  await store.db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** A random secret created once and shared by every instance on this database. */
export async function sharedSecret(store: Store, key: string): Promise<Buffer> {
  const existing = await getSetting(store, key);
  const value = existing ?? (await putSettingOnce(store, key, randomBytes(32).toString('base64')));
  return Buffer.from(value, 'base64');
}
