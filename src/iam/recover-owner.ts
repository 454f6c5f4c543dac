// Operator recovery: with access to the database (not to the API), create a
// fresh owner for an organization and write its keys, e.g. after the first
// start's credentials file was lost. Same all-or-nothing rule as first start.
import { transact } from '../store/transact.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../store/store.js';
import { getSetting, PUBLIC_URL_SETTING } from '../store/settings-store.js';
import { insertOwner, newOwnerKeys, removeCredentialsFile, writeCredentialsFile, type OwnerCredentials } from './owner-credentials.js';

export interface RecoverOptions {
  /** Organization name; default: the one created on first start. */
  org?: string;
  /** File to write; must not exist. */
  out: string;
  /** API URL recorded in the file for the CLI; default: the public URL the server last started with. */
  api?: string;
}

/** Where the written credentials point the CLI, and where that came from. */
export interface RecoveredOwner {
  credentials: OwnerCredentials;
  apiSource: 'flag' | 'database' | 'default';
}

/** Used when neither --api nor a server start (which records its public URL) says otherwise. */
const DEFAULT_API = 'http://127.0.0.1:8080';

export async function recoverOwner(store: Store, opts: RecoverOptions): Promise<RecoveredOwner> {
  if (existsSync(opts.out)) throw new Error(`${opts.out} already exists; choose another --out`);
  const recorded = opts.api === undefined ? await getSetting(store, PUBLIC_URL_SETTING) : undefined;
  const api = (opts.api ?? recorded ?? DEFAULT_API).replace(/\/+$/, '');
  const apiSource = opts.api !== undefined ? 'flag' : recorded !== undefined ? 'database' : 'default';
  let q = store.db.selectFrom('groups').select(['uid', 'name']).where('parent_uid', 'is', null);
  if (opts.org) q = q.where('name', '=', opts.org);
  else {
    const first = await getSetting(store, 'bootstrap');
    if (!first) throw new Error('this database has no organization yet: start the server once (berth serve)');
    q = q.where('uid', '=', first);
  }
  const org = await q.executeTakeFirst();
  if (!org) throw new Error(opts.org ? `no organization named ${JSON.stringify(opts.org)}` : 'the first-start organization no longer exists; pass --org NAME');
  const keys = await newOwnerKeys();
  let written = false;
  try {
    return await transact(store, async (tx) => {
      const stamp = new Date()
        .toISOString()
        .replace(/[-:.TZ]/g, '')
        .slice(0, 14);
      const creds = await insertOwner(tx, org, keys, `owner-recovered-${stamp}@${org.name}`, 'Created by berth admin recover-owner', api);
      writeCredentialsFile(dirname(opts.out), opts.out, creds);
      written = true;
      return { credentials: creds, apiSource } as const;
    });
  } catch (err) {
    if (written) removeCredentialsFile(opts.out);
    throw err;
  }
}
