// berth iam: groups, identities, roles and role bindings.
import type { Command } from 'commander';
import { iamGroupsCommand } from './iam-groups-command.js';
import { iamIdentitiesCommand } from './iam-identities-command.js';
import { iamRoleBindingsCommand } from './iam-role-bindings-command.js';
import { iamRolesCommand } from './iam-roles-command.js';

export function iamCommand(program: Command): void {
  const iam = program
    .command('iam')
    .description('Manage groups, identities, roles and role bindings')
    .addHelpText('after', '\nExamples:\n  berth iam groups list\n  berth iam role-bindings create --identity <identity uid> --role viewer');
  iamGroupsCommand(iam);
  iamIdentitiesCommand(iam);
  iamRolesCommand(iam);
  iamRoleBindingsCommand(iam);
}
