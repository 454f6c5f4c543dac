// Operator commands that work on the database directly, for when the API
// cannot help (no owner can sign in).
import type { Command } from 'commander';
import { join } from 'node:path';
import { type DatabaseOptions, databaseOptions, databaseUrlOf, withStore } from './database-options.js';
import { secretsKeyCommand } from './admin-secrets-key-command.js';
import { signingKeysCommand } from './admin-signing-keys-command.js';
import { verifyDomainCommand } from './admin-verify-domain-command.js';

export function adminCommand(program: Command): void {
  const admin = program.command('admin').description('Operator commands on the database itself (no API token needed)');
  databaseOptions(admin.command('recover-owner').description('Create a fresh owner identity for an organization and write its keys to a new file'))
    .option('--org <name>', 'organization name (default: the one created on first start)')
    .option('--out <file>', 'where to write the credentials (must not exist; default: <data>/owner-credentials-<time>.json)')
    .option('--api <url>', 'API URL to record in the credentials (default: the public URL the server last started with, read from the database)')
    .addHelpText(
      'after',
      `
Example:
  berth admin recover-owner --database postgres://berth@db/berth --org example.com --out ./owner.json
  berth auth login --credentials ./owner.json

The new identity is root-level and bound "owner" on the organization. Existing
owners keep working; delete them through the API if their keys were exposed.
The credentials point at the API URL the server last started with (its
--public-url, or http://<listen>), which each start records in the database;
--api records another.`,
    )
    .action(async (o: DatabaseOptions & { org?: string; out?: string; api?: string }) => {
      // The store and the IAM code are loaded here: other commands start without them.
      const [{ describeDatabase }, { recoverOwner }] = await Promise.all([import('../store/store.js'), import('../iam/recover-owner.js')]);
      const out = o.out ?? join(o.data, `owner-credentials-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
      const { credentials: creds, apiSource } = await withStore(o, (store) => recoverOwner(store, { org: o.org, out, api: o.api }));
      const from = { flag: '--api', database: "the server's public URL, from the database", default: 'no server start recorded one; give --api' }[apiSource];
      process.stderr.write(
        `Created owner ${creds.identity} of ${creds.organization.name} (${creds.organization.uid}) in ${describeDatabase({ databaseUrl: databaseUrlOf(o), dataDir: o.data })}.\n` +
          `Its keys are in ${out} (mode 0600), for the API at ${creds.api} (${from}). Use them with:\n  npx berth auth login --credentials ${out}\n`,
      );
    });
  verifyDomainCommand(admin);
  signingKeysCommand(admin);
  secretsKeyCommand(admin);
}
