// berth iam: groups, identities, roles and their capabilities, role bindings,
// identity providers and their external group role mappings, invites, account
// associations and terms.
import type { Command } from 'commander';
import { iamAccountAssociationsCommand } from './iam-account-associations-command.js';
import { iamCapabilitiesCommand } from './iam-capabilities-command.js';
import { iamGroupsCommand } from './iam-groups-command.js';
import { iamExternalGroupMappingsCommand } from './iam-external-group-mappings-command.js';
import { iamIdentitiesCommand } from './iam-identities-command.js';
import { iamIdentityProvidersCommand } from './iam-identity-providers-command.js';
import { iamInvitesCommand } from './iam-invites-command.js';
import { iamRoleBindingsCommand } from './iam-role-bindings-command.js';
import { iamRolesCommand } from './iam-roles-command.js';
import { iamTermsCommand } from './iam-terms-command.js';

export function iamCommand(program: Command): void {
  const iam = program
    .command('iam')
    .description('Manage groups, identities, roles, role bindings, identity providers, invites, account associations and terms')
    .addHelpText('after', '\nExamples:\n  berth iam groups list\n  berth iam role-bindings create --identity <identity uid> --role viewer');
  iamGroupsCommand(iam);
  iamIdentitiesCommand(iam);
  iamRolesCommand(iam);
  iamCapabilitiesCommand(iam);
  iamRoleBindingsCommand(iam);
  iamIdentityProvidersCommand(iam);
  iamExternalGroupMappingsCommand(iam);
  iamInvitesCommand(iam);
  iamAccountAssociationsCommand(iam);
  iamTermsCommand(iam);
}
