// The built-in roles: root-level, identical in every installation, never
// edited or deleted. Their capability sets follow the deployed API of the same
// design (console_viewer ⊂ viewer ⊂ editor ⊂ owner; registry.pull ⊂ registry.push).
import { createHash } from 'node:crypto';
import type { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { capabilitiesByName } from '../../auth/capability-names.js';

export interface BuiltinRole {
  uid: string;
  name: string;
  description: string;
  capabilities: Capability[];
}

const REGISTRY_PULL = [
  'groups.list',
  'record_signatures.list',
  'sboms.list',
  'vuln_reports.list',
  'repo.blobs.get',
  'repo.list',
  'manifest.list',
  'tag.list',
  'manifest.metadata.list',
  'referrers.list',
];
const REGISTRY_PUSH = [
  ...REGISTRY_PULL,
  'groups.create',
  'repo.create',
  'repo.update',
  'repo.delete',
  'manifest.create',
  'manifest.update',
  'manifest.delete',
  'tag.create',
  'tag.update',
  'tag.delete',
];
const APK_PULL = ['groups.list', 'apk.list', 'apk.blobs.get'];
const CONSOLE_VIEWER = [
  'groups.list',
  'group_invites.list',
  'roles.list',
  'role_bindings.list',
  'record_signatures.list',
  'sboms.list',
  'vuln_reports.list',
  'account_associations.list',
  'identity.list',
  'identity_providers.list',
  'subscriptions.list',
  'repo.list',
  'manifest.list',
  'tag.list',
  'manifest.metadata.list',
  'referrers.list',
  'apk.list',
  'version.list',
  'vuln_report.list',
  'build_report.list',
  'registry.entitlements.list',
  'registry.settings.list',
  'libraries.entitlements.list',
  'libraries.artifacts.list',
  'advisories.list',
];
const VIEWER = [...CONSOLE_VIEWER, ...REGISTRY_PULL, ...APK_PULL, 'terms.list'];
const EDITOR = [...VIEWER, 'subscriptions.create', 'subscriptions.update', 'subscriptions.delete', 'repo.create', 'repo.update', 'repo.delete'];
const PULL_TOKEN_CREATOR = ['groups.list', 'roles.list', 'role_bindings.create', 'identity.create'];
const OWNER = [
  ...EDITOR,
  ...REGISTRY_PUSH,
  'groups.create',
  'groups.update',
  'groups.delete',
  'group_invites.create',
  'group_invites.delete',
  'roles.create',
  'roles.update',
  'roles.delete',
  'role_bindings.create',
  'role_bindings.update',
  'role_bindings.delete',
  'account_associations.create',
  'account_associations.update',
  'account_associations.delete',
  'identity.create',
  'identity.update',
  'identity.delete',
  'identity_providers.create',
  'identity_providers.update',
  'identity_providers.delete',
  'identity_providers.scim.manage',
  'apk.create',
  'apk.delete',
  'vuln_report.create',
  'vuln.create',
  'libraries.entitlements.create',
  'libraries.entitlements.delete',
  'libraries.python.list',
  'libraries.python.create',
  'libraries.java.list',
  'libraries.java.create',
  'libraries.javascript.list',
  'libraries.javascript.create',
  'terms.accept',
  'advisories.create',
  'advisories.update',
  'advisories.delete',
  'advisories.approve',
  // Berth's own (the audit log, docs/audit.md); not in the deployed owner role.
  'audit.list',
];
const LIMITED_OWNER = [...VIEWER, 'identity.create', 'role_bindings.create'];

/** A fixed root-level uid per built-in role name. */
function roleUid(name: string): string {
  if (name === 'viewer') return '63921b2c44617e3f2603851537be0123af4a57d7'; // as in the deployed API
  return createHash('sha1').update(`berth.builtin-role:${name}`).digest('hex');
}

function role(name: string, description: string, caps: string[]): BuiltinRole {
  return { uid: roleUid(name), name, description, capabilities: [...new Set(capabilitiesByName(caps))].sort((a, b) => a - b) };
}

export const BUILTIN_ROLES: readonly BuiltinRole[] = [
  role('owner', 'Owner Role (built-in)', OWNER),
  role('editor', 'Editor Role (built-in)', EDITOR),
  role('viewer', 'Viewer Role (built-in)', VIEWER),
  role('console_viewer', 'Console Viewer Role (built-in)', CONSOLE_VIEWER),
  role('limited_owner', 'Limited Owner Role (built-in)', LIMITED_OWNER),
  role('registry.pull', 'Registry Pull Role (built-in)', REGISTRY_PULL),
  role('registry.push', 'Registry Push Role (built-in)', REGISTRY_PUSH),
  role('registry.pull_token_creator', 'Registry Pull Token Creator Role (built-in)', [...PULL_TOKEN_CREATOR, ...REGISTRY_PULL, ...APK_PULL]),
  role('apk.pull', 'APK Pull Role (built-in)', APK_PULL),
];

const BUILTIN_UIDS = new Set(BUILTIN_ROLES.map((r) => r.uid));

/** Built-in role uids are fixed, public and the same in every installation. */
export function isBuiltinRoleUid(uid: string): boolean {
  return BUILTIN_UIDS.has(uid);
}

export function builtinRoleByName(name: string): BuiltinRole | undefined {
  return BUILTIN_ROLES.find((r) => r.name === name);
}
