// berth iam: groups, identities, roles and their capabilities, role bindings, identity providers and
// their external group role mappings.
import type { Command } from 'commander';
import { iamCapabilitiesCommand } from './iam-capabilities-command.js';
import { iamGroupsCommand } from './iam-groups-command.js';
import { iamExternalGroupMappingsCommand } from './iam-external-group-mappings-command.js';
import { iamIdentitiesCommand } from './iam-identities-command.js';
import { iamIdentityProvidersCommand } from './iam-identity-providers-command.js';
import { iamRoleBindingsCommand } from './iam-role-bindings-command.js';
import { iamRolesCommand } from './iam-roles-command.js';

export function iamCommand(program: Command): void {
  const iam = program
    .command('iam')
    .description('Manage groups, identities, roles, role bindings and identity providers')
    .addHelpText('after', '\nExamples:\n  berth iam groups list\n  berth iam role-bindings create --identity <identity uid> --role viewer');
  iamGroupsCommand(iam);
  iamIdentitiesCommand(iam);
  iamRolesCommand(iam);
  iamCapabilitiesCommand(iam);
  iamRoleBindingsCommand(iam);
  iamIdentityProvidersCommand(iam);
  iamExternalGroupMappingsCommand(iam);
}
