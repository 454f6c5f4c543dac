// berth iam external-group-mappings: which role a group of an identity
// provider's users gets, and where. Providers, roles and groups may be named by
// uid or by name. Deleting several mappings of one provider is one batch call.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { GROUP, IDENTITY_PROVIDER, resolveName, resolveOptional, ROLE } from './name-resolution.js';
import { printDeleted, printList, printOne, type Column } from './output.js';

interface Mapping {
  uid: string;
  identityProviderUid?: string;
  externalGroupId?: string;
  roleUid?: string;
  scope?: string;
  createTime?: string;
}

const COLUMNS: readonly Column<Mapping>[] = [
  { header: 'UID', value: (m) => m.uid },
  { header: 'EXTERNAL GROUP', value: (m) => m.externalGroupId },
  { header: 'ROLE', value: (m) => m.roleUid },
  { header: 'SCOPE', value: (m) => m.scope },
  { header: 'CREATED', value: (m) => m.createTime },
];

const parentOf = (uid: string) => uid.slice(0, Math.max(0, uid.lastIndexOf('/')));

export function iamExternalGroupMappingsCommand(iam: Command): void {
  const mappings = iam
    .command('external-group-mappings')
    .description("Manage external group role mappings: roles an identity provider's groups give their members at sign in")
    .addHelpText(
      'after',
      `
Examples:
  berth iam external-group-mappings list --identity-provider corp-sso
  berth iam external-group-mappings create --identity-provider corp-sso --group engineering --role viewer
  berth iam external-group-mappings delete <uid> [<uid>...]`,
    );

  apiCommand(mappings, 'list', 'List mappings (all pages)')
    .option('--identity-provider <provider>', 'only the mappings of this provider, uid or name')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam external-group-mappings list\n  berth iam external-group-mappings list --identity-provider corp-sso -o json',
    )
    .action(async (o: ApiOptions & { identityProvider?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Mapping>(conn.client, 'iam/v2/externalGroupRoleMappings', 'externalGroupRoleMappings', {
        identityProviderUid: await resolveOptional(conn.client, IDENTITY_PROVIDER, o.identityProvider),
      });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(mappings, 'get <uid>', 'Show one mapping')
    .addHelpText('after', '\nExample:\n  berth iam external-group-mappings get <uid> -o json')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printOne(await conn.client.call<Mapping>('GET', `iam/v2/externalGroupRoleMappings/${uidPath(uid)}`), o.output, COLUMNS);
    });

  apiCommand(mappings, 'create', "Give the members of a provider's group a role")
    .requiredOption('--identity-provider <provider>', 'identity provider, uid or name')
    .requiredOption('--group <id>', 'the group as the provider names it in its groups claim')
    .requiredOption('--role <role>', 'role, uid or name (e.g. viewer)')
    .option('--scope <group>', "Berth group the role applies on, uid or name (default: the provider's group)")
    .addHelpText('after', '\nExample:\n  berth iam external-group-mappings create --identity-provider corp-sso --group engineering --role editor')
    .action(async (o: ApiOptions & { identityProvider: string; group: string; role: string; scope?: string }) => {
      const conn = await connect(o);
      const provider = await resolveName(conn.client, IDENTITY_PROVIDER, o.identityProvider);
      const body = {
        externalGroupId: o.group,
        roleUid: await resolveName(conn.client, ROLE, o.role),
        scope: await resolveOptional(conn.client, GROUP, o.scope),
      };
      printOne(await conn.client.call<Mapping>('POST', `iam/v2/externalGroupRoleMappings/${uidPath(provider)}`, { body }), o.output, COLUMNS);
    });

  apiCommand(mappings, 'delete <uid...>', 'Delete mappings (and the role bindings they made); several must share a provider')
    .addHelpText(
      'after',
      '\nExample:\n  berth iam external-group-mappings list --identity-provider corp-sso -o id | xargs berth iam external-group-mappings delete',
    )
    .action(async (uids: string[], o: ApiOptions) => {
      const conn = await connect(o);
      if (uids.length === 1) {
        printDeleted(uids[0], await conn.client.call('DELETE', `iam/v2/externalGroupRoleMappings/${uidPath(uids[0])}`), o.output);
        return;
      }
      const parent = parentOf(uids[0]);
      if (uids.some((u) => parentOf(u) !== parent))
        throw new Error("the mappings belong to different identity providers: delete each provider's in its own command");
      const r = await conn.client.call<{ externalGroupRoleMappings?: Mapping[] }>('POST', 'iam/v2/externalGroupRoleMappings:batchDelete', {
        body: { parent, names: uids },
      });
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      else for (const m of r.externalGroupRoleMappings ?? []) printDeleted(m.uid, {}, o.output);
    });
}
