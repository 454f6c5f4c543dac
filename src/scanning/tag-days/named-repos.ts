// Repos by name, narrowed to those the caller may read: the day-by-day
// reports name repos as images do ("tools/app"), and one name may exist in
// several organizations (each one the caller sees is answered).
import type { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Caller } from '../../auth/caller.js';
import { isSelfOrBelow } from '../../core/uidp.js';
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor } from '../../store/transact.js';

export interface NamedRepo {
  uid: string;
  name: string;
}

/** The repos with one of `names` at whose uid the caller holds every one of `caps`, by name then uid. */
export async function visibleReposNamed(ex: Executor, caller: Caller, caps: readonly Capability[], names: readonly string[]): Promise<NamedRepo[]> {
  const scopes = await Promise.all(caps.map((c) => caller.scopes(c)));
  if (names.length === 0 || scopes.some((s) => s.length === 0)) return [];
  const out: NamedRepo[] = [];
  for (const part of statementChunks([...new Set(names)])) {
    const rows = await ex.selectFrom('repos').select(['uid', 'name']).where('name', 'in', part).execute();
    for (const r of rows) if (scopes.every((s) => s.some((scope) => isSelfOrBelow(r.uid, scope)))) out.push(r);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.uid.localeCompare(b.uid));
}
