// berth admin verify-domain: an operator verifies an email domain for an
// organization, so people whose verified email is there can find it
// (LookupGroup) and ask to join (RequestGroupAccess).
import type { Command } from 'commander';
import { type DatabaseOptions, databaseOptions, withStore } from './database-options.js';

export function verifyDomainCommand(admin: Command): void {
  databaseOptions(
    admin
      .command('verify-domain')
      .description('Verify an email domain for an organization (people with a verified email there may ask to join it), or withdraw it')
      .argument('<domain>', 'the email domain, e.g. example.com'),
  )
    .option('--org <name>', 'organization name (default: the one created on first start)')
    .option('--remove', 'withdraw the domain instead')
    .action(async (domain: string, o: DatabaseOptions & { org?: string; remove?: boolean }) => {
      // The IAM code is loaded here: other commands start without it.
      const { changeOrgDomain } = await import('../iam/group-access/org-domains.js');
      process.stderr.write(`${await withStore(o, (store) => changeOrgDomain(store, { org: o.org, domain, remove: o.remove }))}\n`);
    });
}
