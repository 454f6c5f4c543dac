// An owner for an organization: a root-level identity with static keys, bound
// `owner` on the organization, whose private key goes to the operator in a
// 0600 file. The file is written before the caller's transaction commits, and
// removed again if the commit fails, so keys are never lost and never point at
// nothing. Used by first start and by `berth admin recover-owner`.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { builtinRoleByName } from './roles/builtin-roles.js';
import { newRootUid } from '../core/uidp.js';
import { Identity_StaticKeysSchema } from '../gen/berth/iam/v2/identities_pb.js';
import type { Tx } from '../store/transact.js';
import { writeBinding } from './role-bindings/write-binding.js';
import { writeIdentity } from './identities/identity-writer.js';

export const STATIC_ISSUER = 'berth:static-keys';
const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface OwnerCredentials {
  api: string;
  identity: string;
  issuer: string;
  subject: string;
  privateKey: JWK;
  organization: { uid: string; name: string };
}

export interface OwnerKeys {
  privateJwk: JWK;
  publicJwk: JWK;
}

/** Generated outside the transaction: key generation need not hold a lock. */
export async function newOwnerKeys(): Promise<OwnerKeys> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'admin';
  return {
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
  };
}

/**
 * Inserts the identity and its owner binding. Root-level, because an identity
 * created under an organization is scoped to it and could not own another.
 */
export async function insertOwner(
  tx: Tx,
  org: { uid: string; name: string },
  keys: OwnerKeys,
  subject: string,
  description: string,
  api: string,
): Promise<OwnerCredentials> {
  const identityUid = newRootUid();
  const staticKeys = create(Identity_StaticKeysSchema, {
    issuer: STATIC_ISSUER,
    subject,
    issuerKeys: JSON.stringify({ keys: [keys.publicJwk] }),
    expirationTime: timestampFromMs(Date.now() + YEAR_MS),
  });
  const owner = {
    uid: identityUid,
    parent: null,
    name: 'owner',
    description,
    company: '',
    email: '',
    relationship: { case: 'staticKeys' as const, value: staticKeys },
  };
  await writeIdentity(tx, owner, 'owner');
  await writeBinding(tx, { parent: org.uid, identityUid, roleUid: builtinRoleByName('owner')!.uid });
  return { api, identity: identityUid, issuer: STATIC_ISSUER, subject, privateKey: keys.privateJwk, organization: org };
}

/**
 * Writes the file durably (0600, in a 0700 directory made if missing). An
 * existing file is kept under a new name rather than overwritten: it belongs to
 * a database this one is not (the caller only writes for a fresh owner).
 */
export function writeCredentialsFile(dir: string, file: string, creds: OwnerCredentials): { file: string; movedAside?: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let movedAside: string | undefined;
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    movedAside = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.old`;
    renameSync(file, movedAside);
    fd = openSync(file, 'wx', 0o600);
  }
  try {
    writeSync(fd, `${JSON.stringify(creds, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { file, movedAside };
}

/** Undoes writeCredentialsFile, putting back a file it moved aside. */
export function removeCredentialsFile(file: string, movedAside?: string): void {
  try {
    unlinkSync(file);
    if (movedAside) renameSync(movedAside, file);
  } catch {
    // never written, or already gone
  }
}
