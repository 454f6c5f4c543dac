// berth admin verify-domain: an operator verifies an email domain for an
// organization, so people whose verified email is there can find it
// (LookupGroup) and ask to join (RequestGroupAccess).
import type { Command } from 'commander';

export function verifyDomainCommand(admin: Command): void {
  admin
    .command('verify-domain')
    .description('Verify an email domain for an organization (people with a verified email there may ask to join it), or withdraw it')
    .argument('<domain>', 'the email domain, e.g. example.com')
    .option('--data <dir>', 'data directory (SQLite file)', './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--org <name>', 'organization name (default: the one created on first start)')
    .option('--remove', 'withdraw the domain instead')
    .action(async (domain: string, o: { data: string; database?: string; org?: string; remove?: boolean }) => {
      // The store and the IAM code are loaded here: other commands start without them.
      const [{ openStore }, { changeOrgDomain }] = await Promise.all([import('../store/store.js'), import('../iam/group-access/org-domains.js')]);
      const store = await openStore({ databaseUrl: o.database ?? process.env.BERTH_DATABASE_URL, dataDir: o.data });
      try {
        process.stderr.write(`${await changeOrgDomain(store, { org: o.org, domain, remove: o.remove })}\n`);
      } finally {
        await store.close();
      }
    });
}
