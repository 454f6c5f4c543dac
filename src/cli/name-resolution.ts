// Resources named on the command line by uid or by name: a uid is used as it
// is; a name is looked up with the List call's exact `name` filter among what
// the caller can see (within a parent, when the kind's names are unique only
// there). No match, or several, is an error: several list each candidate's
// uid so the user can pick one, never a guess.
import { parentOrOrg, type ApiClient, type Connection, type Query } from './api-client.js';
import { listAll } from './list-all.js';

const UID = /^[0-9a-f]{40}(?:\/[0-9a-f]{16})*$/;
/** Candidates fetched for a name; more than this is reported as "at least". */
const MAX_CANDIDATES = 20;

export interface NamedKind {
  /** "group", "role", "identity provider" */
  label: string;
  /** When not label + "s". */
  plural?: string;
  path: string;
  itemsKey: string;
  /** The command that lists them, for the error; "" when there is none. */
  listCommand: string;
}

export const GROUP: NamedKind = { label: 'group', path: 'iam/v2/groups', itemsKey: 'groups', listCommand: 'berth iam groups list' };
export const ROLE: NamedKind = { label: 'role', path: 'iam/v2/roles', itemsKey: 'roles', listCommand: 'berth iam roles list' };
export const IDENTITY: NamedKind = {
  label: 'identity',
  plural: 'identities',
  path: 'iam/v2/identities',
  itemsKey: 'identities',
  listCommand: 'berth iam identities list',
};
export const IDENTITY_PROVIDER: NamedKind = {
  label: 'identity provider',
  path: 'iam/v2/identityProviders',
  itemsKey: 'identityProviders',
  listCommand: 'berth iam identity-providers list',
};

interface Named {
  uid?: string;
  name?: string;
  description?: string;
}

export function isUid(value: string): boolean {
  return UID.test(value);
}

/** Where a name is looked up: the List filters that narrow it, and how the error names the place. */
export interface NameScope {
  query: Query;
  /** "example.com", "example.com/nginx"; none when the query says it all (organizations). */
  label?: string;
}

/** `value` when it is a uid, else the uid of the one `kind` named `value` (within `scope`, when given). */
export async function resolveName(client: ApiClient, kind: NamedKind, value: string, scope?: NameScope): Promise<string> {
  if (isUid(value)) return value;
  if (value === '') throw new Error(`an empty ${kind.label} name`);
  const found = await listAll<Named>(client, kind.path, kind.itemsKey, { ...scope?.query, name: value }, MAX_CANDIDATES + 1);
  const where = scope?.label ? ` in ${scope.label}` : '';
  const see = kind.listCommand ? ` (see \`${kind.listCommand}\`)` : '';
  if (found.length === 0) throw new Error(`no ${kind.label} named ${JSON.stringify(value)}${where}${see}`);
  if (found.length === 1) return found[0].uid!;
  const count = found.length > MAX_CANDIDATES ? `at least ${MAX_CANDIDATES + 1}` : String(found.length);
  const lines = found.slice(0, MAX_CANDIDATES).map((f) => `  ${f.uid}${f.description ? `  ${f.description}` : ''}`);
  throw new Error(`${count} ${kind.plural ?? `${kind.label}s`} are named ${JSON.stringify(value)}; give the uid of one of them:\n${lines.join('\n')}`);
}

/** An optional option: resolved when given. */
export async function resolveOptional(client: ApiClient, kind: NamedKind, value: string | undefined): Promise<string | undefined> {
  return value === undefined ? undefined : resolveName(client, kind, value);
}

/** A --parent group, uid or name; absent means the organization of the credentials. */
export async function resolveParent(conn: Connection, value: string | undefined): Promise<string> {
  return value === undefined ? parentOrOrg(conn, undefined) : resolveName(conn.client, GROUP, value);
}
