// UIDs are paths: a root uid is 40 lowercase hex characters, each level below
// adds "/" and 16 hex. A child's uid is its parent's uid plus one segment, so
// "is below" is a prefix test and a subtree is one contiguous key range.
import { randomBytes } from 'node:crypto';

const UIDP = /^[0-9a-f]{40}(?:\/[0-9a-f]{16})*$/;
export const MAX_DEPTH = 16;

export function isValidUid(uid: string): boolean {
  return uid.length <= 40 + 17 * MAX_DEPTH && UIDP.test(uid);
}

export function newRootUid(): string {
  return randomBytes(20).toString('hex');
}

export function newChildUid(parent: string): string {
  return `${parent}/${randomBytes(8).toString('hex')}`;
}

/** The parent uid, or "" for a root uid. */
export function parentOf(uid: string): string {
  const i = uid.lastIndexOf('/');
  return i < 0 ? '' : uid.slice(0, i);
}

export function rootOf(uid: string): string {
  const i = uid.indexOf('/');
  return i < 0 ? uid : uid.slice(0, i);
}

/** True when `uid` is `ancestor` itself or anywhere below it. */
export function isSelfOrBelow(uid: string, ancestor: string): boolean {
  return uid === ancestor || (uid.length > ancestor.length && uid.startsWith(ancestor) && uid[ancestor.length] === '/');
}

/** Strict ancestors of `uid`, nearest first. */
export function ancestorsOf(uid: string): string[] {
  const out: string[] = [];
  for (let p = parentOf(uid); p !== ''; p = parentOf(p)) out.push(p);
  return out;
}

/**
 * The half-open key range [low, high) holding every strict descendant of `uid`.
 * '/' (0x2f) sorts just before '0' (0x30), and uids hold only hex and '/'.
 */
export function descendantRange(uid: string): { low: string; high: string } {
  return { low: `${uid}/`, high: `${uid}0` };
}

/** Drops every uid that lies below another uid of the list. */
export function outermost(uids: Iterable<string>): string[] {
  const sorted = [...new Set(uids)].sort();
  const out: string[] = [];
  for (const u of sorted) {
    const last = out[out.length - 1];
    if (last === undefined || !isSelfOrBelow(u, last)) out.push(u);
  }
  return out;
}
