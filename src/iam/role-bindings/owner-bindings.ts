// An organization keeps at least one role binding on its root group that
// grants every capability of the built-in owner role (the owner role itself,
// or a custom role holding all of them): without one nobody could manage it
// any more, short of `berth admin recover-owner`.
//
// Bindings are added only through writeBinding, which cannot break this; they
// are removed in many ways — deleting or re-roling a binding, deleting its
// identity (cascade), its external group mapping or identity provider
// (cascade), narrowing its custom role, the sign-in group sync. Each of those
// runs its change through keepOwners, which finds the organizations where the
// bindings it may remove grant owner, locks their root group rows (so two
// transactions removing two owners one at a time cannot each see the other's
// binding still there; SQLite's one writer needs no lock), makes the change,
// and refuses it (the whole transaction) when one of them has no owner left.
import { bindingWithinIdentityScope } from '../../auth/identity-scope.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import type { Tx } from '../../store/transact.js';
import { lastOwnerBinding } from '../errors.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { roleCapabilities } from '../roles/role-row.js';

const OWNER_CAPABILITIES = builtinRoleByName('owner')?.capabilities ?? [];

/** The bindings a change may remove. */
export type RemovedBindings =
  | { bindings: readonly string[] }
  | { identity: string }
  | { mappings: readonly string[] }
  | { provider: string }
  | { role: string };

function grantsOwner(capabilitiesJson: string): boolean {
  const caps = new Set(roleCapabilities({ capabilities: capabilitiesJson }));
  return OWNER_CAPABILITIES.every((c) => caps.has(c));
}

/** Root-group bindings with their role's capabilities; `which` narrows them to those a change may remove. */
function rootBindings(tx: Tx) {
  return tx
    .selectFrom('role_bindings as rb')
    .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
    .innerJoin('groups as g', 'g.uid', 'rb.parent_uid')
    .select(['rb.parent_uid as org', 'rb.identity_uid as identity', 'r.capabilities as capabilities'])
    .where('g.parent_uid', 'is', null);
}

/** The organizations where bindings `which` names grant every owner capability, in uid order. */
async function ownerOrgsOf(tx: Tx, which: RemovedBindings): Promise<string[]> {
  let q = rootBindings(tx);
  if ('bindings' in which) {
    if (which.bindings.length === 0) return [];
    q = q.where('rb.uid', 'in', [...which.bindings]);
  } else if ('identity' in which) q = q.where('rb.identity_uid', '=', which.identity);
  else if ('mappings' in which) {
    if (which.mappings.length === 0) return [];
    q = q.where('rb.mapping_uid', 'in', [...which.mappings]);
  } else if ('provider' in which) {
    q = q.where('rb.mapping_uid', 'in', tx.selectFrom('external_group_role_mappings').select('uid').where('parent_uid', '=', which.provider));
  } else q = q.where('rb.role_uid', '=', which.role);
  const rows = await q.execute();
  return [...new Set(rows.filter((r) => grantsOwner(r.capabilities)).map((r) => r.org))].sort();
}

async function hasOwner(tx: Tx, org: string): Promise<boolean> {
  const rows = await rootBindings(tx).where('rb.parent_uid', '=', org).execute();
  // A binding above its identity's scope grants nothing (grants.ts), so it does not count.
  return rows.some((r) => grantsOwner(r.capabilities) && bindingWithinIdentityScope(r.identity, org));
}

/** Runs `change` (which may remove the bindings `which` names) and refuses it if an organization is left without an owner binding. */
export async function keepOwners<T>(tx: Tx, which: RemovedBindings, change: () => Promise<T>): Promise<T> {
  const orgs = await ownerOrgsOf(tx, which);
  const caps = capabilitiesOf(tx);
  for (const org of orgs) await caps.lockRows(tx.selectFrom('groups').select('uid').where('uid', '=', org), 'exclusive').execute();
  const out = await change();
  for (const org of orgs) if (!(await hasOwner(tx, org))) throw lastOwnerBinding(org);
  return out;
}
