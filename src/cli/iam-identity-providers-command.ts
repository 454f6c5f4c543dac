// berth iam identity-providers: the OpenID Connect providers people sign in
// through. Groups and roles may be named by uid or by name. The client secret
// is read from a file or stdin, never from the command line (where `ps` and
// shell history would show it), and the API never returns it.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { GROUP, IDENTITY_PROVIDER, resolveName, resolveOptional, resolveParent, ROLE } from './name-resolution.js';
import { printDeleted, printList, printOne, type Column } from './output.js';
import { readSecretFile } from './secret-file.js';

interface Provider {
  uid: string;
  name: string;
  description?: string;
  defaultRole?: string;
  oidc?: { issuer?: string; clientId?: string; additionalScopes?: string[]; groupsClaim?: string; pkceEnabled?: boolean };
  createTime?: string;
}

const COLUMNS: readonly Column<Provider>[] = [
  { header: 'UID', value: (p) => p.uid },
  { header: 'NAME', value: (p) => p.name },
  { header: 'ISSUER', value: (p) => p.oidc?.issuer },
  { header: 'CLIENT ID', value: (p) => p.oidc?.clientId },
  { header: 'DEFAULT ROLE', value: (p) => p.defaultRole },
];

/** The client secret in `file` ("-": stdin). */
const readSecret = (file: string) => readSecretFile(file, 'the client secret', ' (use --clear-client-secret to remove a secret)');

const scopesOf = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

interface ProviderOptions extends ApiOptions {
  description?: string;
  issuer?: string;
  clientId?: string;
  clientSecretFile?: string;
  scopes?: string[];
  groupsClaim?: string;
  defaultRole?: string;
  pkce?: boolean;
}

export function iamIdentityProvidersCommand(iam: Command): void {
  const providers = iam
    .command('identity-providers')
    .description('Manage identity providers: the OpenID Connect services people sign in through')
    .addHelpText(
      'after',
      `
Examples:
  berth iam identity-providers list
  berth iam identity-providers create corp-sso --issuer https://login.example.com \\
      --client-id berth --client-secret-file secret.txt --default-role viewer --groups-claim groups
  berth iam identity-providers update corp-sso --issuer https://sso.example.com
  berth iam identity-providers delete <uid>`,
    );

  apiCommand(providers, 'list', 'List identity providers (all pages)')
    .option('--parent <group>', 'only those directly in this group (uid or name; default: every one you can see)')
    .option('--name <name>', 'only those with this exact name')
    .addHelpText('after', '\nExamples:\n  berth iam identity-providers list\n  berth iam identity-providers list --parent <group> -o id')
    .action(async (o: ApiOptions & { parent?: string; name?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Provider>(conn.client, 'iam/v2/identityProviders', 'identityProviders', {
        'uidp.children_of': await resolveOptional(conn.client, GROUP, o.parent),
        name: o.name,
      });
      printList(items, o.output, COLUMNS);
    });

  apiCommand(providers, 'get <provider>', 'Show one identity provider (uid or name)')
    .addHelpText('after', '\nExample:\n  berth iam identity-providers get corp-sso -o json')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY_PROVIDER, ref);
      printOne(await conn.client.call<Provider>('GET', `iam/v2/identityProviders/${uidPath(uid)}`), o.output, COLUMNS);
    });

  apiCommand(providers, 'create <name>', 'Create an identity provider')
    .option('--parent <group>', 'group it belongs to, uid or name (default: the organization)')
    .requiredOption('--issuer <url>', 'the OpenID Connect issuer (https)')
    .requiredOption('--client-id <id>', 'the client id Berth is registered with at the provider')
    .option('--client-secret-file <file>', 'file holding the client secret ("-": stdin); omit for a public client')
    .requiredOption('--default-role <role>', 'role new users get on the group, uid or name (e.g. viewer)')
    .option('--scopes <a,b>', 'scopes to request besides openid, email and profile', scopesOf)
    .option('--groups-claim <claim>', 'ID token claim listing the user\'s groups (default: "groups")')
    .option('--pkce', 'use PKCE at sign in')
    .option('--description <text>', 'description')
    .addHelpText(
      'after',
      '\nExample:\n  berth iam identity-providers create corp-sso --issuer https://login.example.com --client-id berth \\\n      --client-secret-file secret.txt --default-role viewer',
    )
    .action(async (name: string, o: ProviderOptions & { parent?: string }) => {
      const clientSecret = o.clientSecretFile === undefined ? undefined : readSecret(o.clientSecretFile);
      const conn = await connect(o);
      const parent = await resolveParent(conn, o.parent);
      const body = {
        name,
        description: o.description,
        defaultRole: await resolveName(conn.client, ROLE, o.defaultRole!),
        oidc: { issuer: o.issuer, clientId: o.clientId, clientSecret, additionalScopes: o.scopes, groupsClaim: o.groupsClaim, pkceEnabled: o.pkce },
      };
      printOne(await conn.client.call<Provider>('POST', `iam/v2/identityProviders/${uidPath(parent)}`, { body }), o.output, COLUMNS);
    });

  apiCommand(providers, 'update <provider>', 'Change an identity provider (only the fields given; the secret stays unless replaced or cleared)')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--issuer <url>', 'new issuer')
    .option('--client-id <id>', 'new client id')
    .option('--client-secret-file <file>', 'new client secret from a file ("-": stdin)')
    .option('--clear-client-secret', 'remove the client secret (a public client)')
    .option('--scopes <a,b>', 'new additional scopes ("" for none)', scopesOf)
    .option('--groups-claim <claim>', 'new groups claim')
    .option('--default-role <role>', 'new default role, uid or name')
    .option('--pkce', 'use PKCE at sign in')
    .option('--no-pkce', 'do not use PKCE')
    .addHelpText(
      'after',
      '\nExamples:\n  berth iam identity-providers update corp-sso --issuer https://sso.example.com\n  berth iam identity-providers update <uid> --client-secret-file - < secret.txt',
    )
    .action(async (ref: string, o: ProviderOptions & { name?: string; clearClientSecret?: boolean }) => {
      if (o.clearClientSecret && o.clientSecretFile !== undefined) throw new Error('--client-secret-file and --clear-client-secret exclude each other');
      const clientSecret = o.clearClientSecret ? '' : o.clientSecretFile === undefined ? undefined : readSecret(o.clientSecretFile);
      const top = { name: o.name, description: o.description };
      const oidc = { issuer: o.issuer, clientId: o.clientId, clientSecret, additionalScopes: o.scopes, groupsClaim: o.groupsClaim, pkceEnabled: o.pkce };
      const set = <T extends object>(fields: T) => Object.entries(fields).filter(([, v]) => v !== undefined);
      const paths = [...set(top).map(([k]) => k), ...(o.defaultRole === undefined ? [] : ['defaultRole']), ...set(oidc).map(([k]) => `oidc.${k}`)];
      if (paths.length === 0) throw new Error('nothing to update: give at least one option (see --help)');
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY_PROVIDER, ref);
      const body = {
        ...Object.fromEntries(set(top)),
        defaultRole: await resolveOptional(conn.client, ROLE, o.defaultRole),
        oidc: Object.fromEntries(set(oidc)),
      };
      const updated = await conn.client.call<Provider>('PATCH', `iam/v2/identityProviders/${uidPath(uid)}`, { query: { updateMask: paths.join(',') }, body });
      printOne(updated, o.output, COLUMNS);
    });

  apiCommand(providers, 'delete <provider>', 'Delete an identity provider, its group mappings and the role bindings they made')
    .addHelpText('after', '\nExample:\n  berth iam identity-providers delete <uid>')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY_PROVIDER, ref);
      printDeleted(uid, await conn.client.call('DELETE', `iam/v2/identityProviders/${uidPath(uid)}`), o.output);
    });
}
