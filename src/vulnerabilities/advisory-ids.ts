// Advisory ids and deterministic uids. A CGA id is "CGA-" and three groups
// of four characters from a 20-letter alphabet without look-alikes; ids we
// mint are derived from what the advisory is about, and uids from the
// advisory's identity (and an event's from its content), so a re-import
// produces the same uids and changes nothing.
import { hash } from 'node:crypto';

export const CGA_ID = /^CGA(-[23456789cfghjmpqrvwx]{4}){3}$/;
const ALPHABET = '23456789cfghjmpqrvwx';

/** Aliases an advisory may carry: CVE, GHSA and Go vulnerability ids. */
export const ALIAS_ID = /^(CVE-\d{4}-\d{4,}|GHSA(-[23456789cfghjmpqrvwx]{4}){3}|GO-\d{4}-\d{4,})$/;

function hex16(parts: readonly string[]): string {
  return hash('sha256', parts.join('\u0000'), 'hex').slice(0, 16);
}

/** A CGA id for a source that has none, from the strings that identify the advisory (e.g. format, package, vulnerability). */
export function mintAdvisoryId(parts: readonly string[]): string {
  const digest = hash('sha256', ['cga', ...parts].join('\u0000'), 'buffer');
  let id = 'CGA';
  for (let g = 0; g < 3; g++) {
    id += '-';
    for (let i = 0; i < 4; i++) id += ALPHABET[digest[g * 4 + i] % ALPHABET.length];
  }
  return id;
}

/** What makes two advisories the same one, whatever format they were imported from. */
export interface AdvisoryIdentity {
  advisoryId: string;
  artifactName: string;
  artifactArchitecture: string;
  componentName: string;
  componentLocation: string;
}

/** The uid of an advisory in a group: the same for the same identity, in any import. */
export function advisoryUid(group: string, a: AdvisoryIdentity): string {
  return `${group}/${hex16([a.advisoryId, a.artifactName, a.artifactArchitecture, a.componentName, a.componentLocation])}`;
}

/** 16 hex of an event's content (canonical JSON of what the event says, not where it is). */
export function eventContentHash(canonicalJson: string): string {
  return hex16([canonicalJson]);
}

/** The uid of an event on an advisory. */
export function eventUid(advisory: string, contentHash: string): string {
  return `${advisory}/${hex16([advisory, contentHash])}`;
}
