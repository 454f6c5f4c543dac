// berth iam account-associations: the cloud accounts (AWS, Google Cloud,
// Azure, GitHub App installations) a group is associated with. One per group;
// it is addressed by the group (uid or name).
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { resolveParent } from './name-resolution.js';
import { listAll } from './list-all.js';
import { printDeleted, printList, printOne, type Column } from './output.js';

interface Association {
  uid: string;
  name?: string;
  description?: string;
  amazon?: unknown;
  google?: unknown;
  azure?: unknown;
  github?: unknown;
  updateTime?: string;
}

const COLUMNS: readonly Column<Association>[] = [
  { header: 'GROUP', value: (a) => a.uid },
  { header: 'NAME', value: (a) => a.name },
  {
    header: 'PROVIDERS',
    value: (a) => (['amazon', 'google', 'azure', 'github'] as const).filter((p) => a[p] !== undefined && a[p] !== null).join(','),
  },
  { header: 'UPDATED', value: (a) => a.updateTime },
];

interface ProviderOptions {
  name?: string;
  description?: string;
  awsAccount?: string;
  gcpProjectId?: string;
  gcpProjectNumber?: string;
  azureTenantId?: string;
  azureClientId?: string[];
  githubInstallation?: string[];
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** "registry=<uuid>" pairs → the client_ids map. */
function clientIds(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new Error(`--azure-client-id must be COMPONENT=CLIENT_ID, got ${JSON.stringify(p)}`);
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

/** "APP_ID:INSTALLATION_ID[:NAME]" → app_installations. */
function installations(specs: string[]): Record<string, { installations: { installationId: string; name?: string }[] }> {
  const out: Record<string, { installations: { installationId: string; name?: string }[] }> = {};
  for (const s of specs) {
    const m = /^(\d+):(\d+)(?::(.+))?$/.exec(s);
    if (!m) throw new Error(`--github-installation must be APP_ID:INSTALLATION_ID[:NAME], got ${JSON.stringify(s)}`);
    out[m[1]] ??= { installations: [] };
    out[m[1]].installations.push({ installationId: m[2], name: m[3] });
  }
  return out;
}

/** The body fields the options give; a provider is sent whole when any of its options is. */
function fieldsOf(o: ProviderOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (o.name !== undefined) body.name = o.name;
  if (o.description !== undefined) body.description = o.description;
  if (o.awsAccount !== undefined) body.amazon = { account: o.awsAccount };
  if (o.gcpProjectId !== undefined || o.gcpProjectNumber !== undefined) body.google = { projectId: o.gcpProjectId, projectNumber: o.gcpProjectNumber };
  if (o.azureTenantId !== undefined || o.azureClientId !== undefined) body.azure = { tenantId: o.azureTenantId, clientIds: clientIds(o.azureClientId ?? []) };
  if (o.githubInstallation !== undefined) body.github = { appInstallations: installations(o.githubInstallation) };
  return body;
}

function providerOptions(cmd: Command): Command {
  return cmd
    .option('--description <text>', 'description')
    .option('--aws-account <id>', '12-digit AWS account id')
    .option('--gcp-project-id <id>', 'Google Cloud project id (with --gcp-project-number)')
    .option('--gcp-project-number <n>', 'Google Cloud project number')
    .option('--azure-tenant-id <uuid>', 'Microsoft Entra tenant id (with --azure-client-id)')
    .option('--azure-client-id <component=uuid>', 'an Azure client id for a component (repeatable)', collect)
    .option('--github-installation <app:installation[:name]>', 'a GitHub App installation (repeatable)', collect);
}

const PROVIDERS: Record<string, string> = { aws: 'AMAZON', amazon: 'AMAZON', gcp: 'GOOGLE', google: 'GOOGLE', azure: 'AZURE' };

export function iamAccountAssociationsCommand(iam: Command): void {
  const assoc = iam
    .command('account-associations')
    .description("Manage a group's associated cloud accounts (AWS, Google Cloud, Azure, GitHub)")
    .addHelpText(
      'after',
      `
Examples:
  berth iam account-associations create --name prod --aws-account 123456789012
  berth iam account-associations update team-a --gcp-project-id my-project --gcp-project-number 1234567
  berth iam account-associations get team-a -o json
  berth iam account-associations delete team-a`,
    );

  apiCommand(assoc, 'list', 'List account associations (all pages, by group)')
    .option('--parent <group>', 'only those of the groups directly below this group (uid or name)')
    .addHelpText('after', '\nExamples:\n  berth iam account-associations list\n  berth iam account-associations list --parent <group> -o id')
    .action(async (o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const scope = o.parent === undefined ? undefined : await resolveParent(conn, o.parent);
      const items = await listAll<Association>(conn.client, 'iam/v2/accountAssociations', 'accountAssociations', { 'uidp.children_of': scope });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(assoc, 'get <group>', 'Show the account association of a group (uid or name)')
    .addHelpText('after', '\nExample:\n  berth iam account-associations get team-a -o json')
    .action(async (group: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveParent(conn, group);
      printOne(await conn.client.call<Association>('GET', `iam/v2/accountAssociations/${uidPath(uid)}`), o.output, COLUMNS);
    });

  providerOptions(apiCommand(assoc, 'create', 'Associate cloud accounts with a group'))
    .option('--parent <group>', 'the group, uid or name (default: the organization)')
    .requiredOption('--name <name>', 'name of the association')
    .addHelpText('after', '\nExample:\n  berth iam account-associations create --parent team-a --name prod --aws-account 123456789012')
    .action(async (o: ApiOptions & ProviderOptions & { parent?: string }) => {
      const conn = await connect(o);
      const uid = await resolveParent(conn, o.parent);
      printOne(await conn.client.call<Association>('POST', `iam/v2/accountAssociations/${uidPath(uid)}`, { body: fieldsOf(o) }), o.output, COLUMNS);
    });

  providerOptions(apiCommand(assoc, 'update <group>', 'Change an association (only what is given; a provider given replaces its settings)'))
    .option('--name <name>', 'new name')
    .addHelpText('after', '\nExample:\n  berth iam account-associations update team-a --aws-account 210987654321')
    .action(async (group: string, o: ApiOptions & ProviderOptions) => {
      const body = fieldsOf(o);
      if (Object.keys(body).length === 0) throw new Error('nothing to update: give --name, --description or a provider option');
      const conn = await connect(o);
      const uid = await resolveParent(conn, group);
      const updated = await conn.client.call<Association>('PATCH', `iam/v2/accountAssociations/${uidPath(uid)}`, {
        query: { updateMask: Object.keys(body).join(',') },
        body,
      });
      printOne(updated, o.output, COLUMNS);
    });

  apiCommand(assoc, 'delete <group>', "Delete a group's account association")
    .addHelpText('after', '\nExample:\n  berth iam account-associations delete team-a')
    .action(async (group: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveParent(conn, group);
      printDeleted(uid, await conn.client.call('DELETE', `iam/v2/accountAssociations/${uidPath(uid)}`), o.output);
    });

  apiCommand(assoc, 'check <group>', 'Check one provider of an association (Berth reports "not configured"; it makes no live check)')
    .requiredOption('--provider <provider>', 'aws, gcp or azure')
    .addHelpText('after', '\nExample:\n  berth iam account-associations check team-a --provider gcp')
    .action(async (group: string, o: ApiOptions & { provider: string }) => {
      const provider = PROVIDERS[o.provider.toLowerCase()];
      if (!provider) throw new Error(`--provider must be aws, gcp or azure, got ${JSON.stringify(o.provider)}`);
      const conn = await connect(o);
      const uid = await resolveParent(conn, group);
      const r = await conn.client.call<{ status?: string; reason?: string; message?: string }>(
        'POST',
        `iam/v2/accountAssociations/${uidPath(uid)}:checkAccountAssociation`,
        { body: { providerType: `ACCOUNT_PROVIDER_TYPE_${provider}` } },
      );
      printOne({ uid, ...r }, o.output, [
        { header: 'GROUP', value: (x) => x.uid },
        { header: 'STATUS', value: (x) => x.status },
        { header: 'REASON', value: (x) => x.reason },
        { header: 'MESSAGE', value: (x) => x.message },
      ]);
    });
}
