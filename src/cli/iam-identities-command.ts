// berth iam identities: list, create, update and delete identities (who may
// exchange an outside token, or a key-signed assertion, for a Berth token).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiCommand, connect, patchOf, uidPath, type ApiOptions } from './api-client.js';
import { listAll } from './list-all.js';
import { IDENTITY, resolveName, resolveParent } from './name-resolution.js';
import { BASIC_COLUMNS, printDeleted, printList, printOne } from './output.js';

interface Identity {
  uid: string;
  name: string;
  description?: string;
  createTime?: string;
}

interface CreateOptions extends ApiOptions {
  parent?: string;
  description?: string;
  issuer?: string;
  subject?: string;
  staticKeysFile?: string;
}

/** The identity body: a claim match, static keys, or neither. */
function identityBody(name: string, o: CreateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { name, description: o.description };
  if (o.staticKeysFile) {
    if (!o.issuer || !o.subject) throw new Error('--static-keys-file needs --issuer and --subject');
    let keys: string;
    try {
      keys = readFileSync(o.staticKeysFile, 'utf8');
      JSON.parse(keys);
    } catch (err) {
      throw new Error(`cannot read JWKS ${o.staticKeysFile}: ${(err as Error).message}`);
    }
    body.staticKeys = { issuer: o.issuer, subject: o.subject, issuerKeys: keys };
  } else if (o.issuer || o.subject) {
    if (!o.issuer || !o.subject) throw new Error('--issuer and --subject go together');
    body.claimMatch = { issuer: o.issuer, subject: o.subject };
  }
  return body;
}

export function iamIdentitiesCommand(iam: Command): void {
  const identities = iam
    .command('identities')
    .description('Manage identities: workloads and robots that can get Berth tokens')
    .addHelpText(
      'after',
      `
Examples:
  berth iam identities list
  berth iam identities get github-ci
  berth iam identities create github-ci --parent <org uid> \\
      --issuer https://token.actions.githubusercontent.com \\
      --subject repo:example/app:ref:refs/heads/main
  berth iam identities create deployer --parent <org uid> \\
      --static-keys-file jwks.json --issuer https://ci.example --subject deployer
  berth iam identities delete <uid>`,
    );

  apiCommand(identities, 'list', 'List identities directly in a group (all pages)')
    .option('--parent <group>', 'group, uid or name (default: the organization)')
    .addHelpText('after', '\nExamples:\n  berth iam identities list\n  berth iam identities list -o json')
    .action(async (o: ApiOptions & { parent?: string }) => {
      const conn = await connect(o);
      const items = await listAll<Identity>(conn.client, 'iam/v2/identities', 'identities', {
        'uidp.children_of': await resolveParent(conn, o.parent),
      });
      printList(items, o.output, BASIC_COLUMNS);
    });

  apiCommand(identities, 'get <identity>', 'Show one identity (uid or name)')
    .addHelpText('after', '\nExamples:\n  berth iam identities get github-ci -o json\n  berth iam identities get <uid>')
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY, ref);
      printOne(await conn.client.call<Identity>('GET', `iam/v2/identities/${uidPath(uid)}`), o.output, BASIC_COLUMNS);
    });

  apiCommand(identities, 'create <name>', 'Create an identity')
    .option('--parent <group>', 'group to create it in, uid or name (default: the organization; needed to reach the registry)')
    .option('--description <text>', 'description')
    .option('--issuer <url>', 'issuer of the tokens it accepts')
    .option('--subject <sub>', 'exact subject claim those tokens must carry')
    .option('--static-keys-file <jwks.json>', 'public keys (JWKS) that sign its assertions; needs --issuer and --subject')
    .addHelpText(
      'after',
      '\nExample:\n  berth iam identities create github-ci --parent <org uid> --issuer https://token.actions.githubusercontent.com --subject repo:example/app:ref:refs/heads/main',
    )
    .action(async (name: string, o: CreateOptions) => {
      const body = identityBody(name, o);
      const conn = await connect(o);
      const identity = await conn.client.call<Identity>('POST', `iam/v2/identities/${uidPath(await resolveParent(conn, o.parent))}`, { body });
      printOne(identity, o.output, BASIC_COLUMNS);
    });

  apiCommand(identities, 'update <identity>', 'Change an identity, by uid or name (only the fields given)')
    .option('--description <text>', 'new description')
    .addHelpText('after', '\nExample:\n  berth iam identities update <uid> --description "deploys production"')
    .action(async (ref: string, o: ApiOptions & { description?: string }) => {
      const { body, updateMask } = patchOf({ description: o.description });
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY, ref);
      const identity = await conn.client.call<Identity>('PATCH', `iam/v2/identities/${uidPath(uid)}`, { query: { updateMask }, body });
      printOne(identity, o.output, BASIC_COLUMNS);
    });

  apiCommand(identities, 'delete <identity>', 'Delete an identity, by uid or name, with its role bindings and sign-in sessions')
    .addHelpText(
      'after',
      `
Its role bindings are deleted with it, its refresh tokens no longer trade, and
tokens it holds are refused from then on (a pull token's password too).

Example:
  berth iam identities delete <uid>`,
    )
    .action(async (ref: string, o: ApiOptions) => {
      const conn = await connect(o);
      const uid = await resolveName(conn.client, IDENTITY, ref);
      const body = await conn.client.call('DELETE', `iam/v2/identities/${uidPath(uid)}`);
      printDeleted(uid, body, o.output);
    });
}
