import type { ServiceImpl } from '@connectrpc/connect';
import type { AccountAssociationsService } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { checkAccountAssociation } from './check-association.js';
import { createAccountAssociation } from './create-association.js';
import { deleteAccountAssociation } from './delete-association.js';
import { getAccountAssociation } from './get-association.js';
import { listAccountAssociations } from './list-associations.js';
import { updateAccountAssociation } from './update-association.js';

export function accountAssociationsService(deps: ServiceDeps): ServiceImpl<typeof AccountAssociationsService> {
  return {
    getAccountAssociation: (req) => getAccountAssociation(deps, req),
    createAccountAssociation: (req, ctx) => createAccountAssociation(deps, req, ctx),
    deleteAccountAssociation: (req, ctx) => deleteAccountAssociation(deps, req, ctx),
    listAccountAssociations: (req, ctx) => listAccountAssociations(deps, req, ctx),
    updateAccountAssociation: (req, ctx) => updateAccountAssociation(deps, req, ctx),
    checkAccountAssociation: (req) => checkAccountAssociation(deps, req),
  };
}
