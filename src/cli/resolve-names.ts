// Groups and roles named on the command line by uid or by name. A name is
// looked up among what the caller can see; none is an error, and so is more
// than one, listing the candidates so the caller can pick a uid.
import { listAll } from './list-all.js';
import type { ApiClient, Connection } from './api-client.js';
import { parentOrOrg } from './api-client.js';

const UID = /^[0-9a-f]{40}(?:\/[0-9a-f]{16})*$/;
const MAX_CANDIDATES = 50;

interface Named {
  uid?: string;
  name?: string;
}

async function byName(client: ApiClient, kind: string, path: string, key: string, name: string, hint: string): Promise<string> {
  const found = await listAll<Named>(client, path, key, { name }, MAX_CANDIDATES);
  if (found.length === 0) throw new Error(`no ${kind} named ${JSON.stringify(name)} (see \`${hint}\`)`);
  if (found.length > 1) {
    const list = found.map((f) => `  ${f.uid}`).join('\n');
    throw new Error(`${found.length} ${kind}s are named ${JSON.stringify(name)}; give the uid of one of them:\n${list}`);
  }
  return found[0].uid!;
}

/** A role uid as given, or the uid of the one role with that name ("viewer"). */
export function resolveRole(client: ApiClient, role: string): Promise<string> {
  return UID.test(role) ? Promise.resolve(role) : byName(client, 'role', 'iam/v2/roles', 'roles', role, 'berth iam roles list');
}

/** A group uid as given, the uid of the one group with that name, or (when none is given) the organization. */
export async function resolveGroup(conn: Connection, group: string | undefined): Promise<string> {
  if (group === undefined) return parentOrOrg(conn, undefined);
  return UID.test(group) ? group : byName(conn.client, 'group', 'iam/v2/groups', 'groups', group, 'berth iam groups list');
}
