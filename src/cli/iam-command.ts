// berth iam: groups, identities, roles, role bindings, invites, account
// associations and terms.
import type { Command } from 'commander';
import { iamAccountAssociationsCommand } from './iam-account-associations-command.js';
import { iamGroupsCommand } from './iam-groups-command.js';
import { iamIdentitiesCommand } from './iam-identities-command.js';
import { iamInvitesCommand } from './iam-invites-command.js';
import { iamRoleBindingsCommand } from './iam-role-bindings-command.js';
import { iamRolesCommand } from './iam-roles-command.js';
import { iamTermsCommand } from './iam-terms-command.js';

export function iamCommand(program: Command): void {
  const iam = program
    .command('iam')
    .description('Manage groups, identities, roles, role bindings, invites, account associations and terms')
    .addHelpText('after', '\nExamples:\n  berth iam groups list\n  berth iam role-bindings create --identity <identity uid> --role viewer');
  iamGroupsCommand(iam);
  iamIdentitiesCommand(iam);
  iamRolesCommand(iam);
  iamRoleBindingsCommand(iam);
  iamInvitesCommand(iam);
  iamAccountAssociationsCommand(iam);
  iamTermsCommand(iam);
}
