// berth.iam.v1.GroupAccountAssociations: the v1 shapes over the
// AccountAssociationsService of src/iam/account-associations/. v1 addresses
// an association by its group (v2's uid is the same group uid).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import {
  type AccountAssociations,
  type AccountAssociationsFilter,
  AccountAssociationsSchema,
  AccountAssociationsStatusSchema,
  type GroupAccountAssociations,
} from '../../gen/berth/iam/v1/account_associations_pb.js';
import {
  type AccountAssociation,
  CheckAccountAssociationRequestSchema,
  CreateAccountAssociationRequestSchema,
  DeleteAccountAssociationRequestSchema,
  ListAccountAssociationsRequestSchema,
  UpdateAccountAssociationRequestSchema,
} from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { checkAccountAssociation } from '../account-associations/check-association.js';
import { createAccountAssociation } from '../account-associations/create-association.js';
import { deleteAccountAssociation } from '../account-associations/delete-association.js';
import { listAccountAssociations } from '../account-associations/list-associations.js';
import { updateAccountAssociation } from '../account-associations/update-association.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, idFilter } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

// PUT replaces every provider and field v1 shows.
const REPLACED = ['name', 'description', 'amazon', 'google', 'azure', 'github'];

/** The provider blocks: the same fields in v1 and v2, only the message types differ. */
function providers(a: AccountAssociations | AccountAssociation) {
  const github = a.github && {
    appInstallations: Object.fromEntries(
      Object.entries(a.github.appInstallations).map(([app, v]) => [
        app,
        { installations: v.installations.map((i: { installationId: bigint; name: string }) => ({ installationId: i.installationId, name: i.name })) },
      ]),
    ),
  };
  return {
    name: a.name,
    description: a.description,
    amazon: a.amazon && { account: a.amazon.account },
    google: a.google && { projectId: a.google.projectId, projectNumber: a.google.projectNumber },
    azure: a.azure && { tenantId: a.azure.tenantId, clientIds: { ...a.azure.clientIds } },
    github,
  };
}

function v1Association(a: AccountAssociation): AccountAssociations {
  return create(AccountAssociationsSchema, { group: a.uid, ...providers(a) });
}

async function listAssociationsV1(deps: ServiceDeps, req: AccountAssociationsFilter, ctx: HandlerContext) {
  const uidp = idFilter(IAM_DOMAIN, 'group', req.group);
  const items = await allItems(iamList('/iam/v2/accountAssociations'), async (pageSize, pageToken) => {
    const page = await listAccountAssociations(deps, create(ListAccountAssociationsRequestSchema, { uidp, name: req.name, pageSize, pageToken }), ctx);
    return [page.accountAssociations.map(v1Association), page.nextPageToken];
  });
  return { $typeName: 'berth.iam.v1.AccountAssociationsList' as const, items };
}

export function accountAssociationsV1Service(deps: ServiceDeps): ServiceImpl<typeof GroupAccountAssociations> {
  return {
    create: async (req, ctx) => {
      const v2 = create(CreateAccountAssociationRequestSchema, { parent: req.group, accountAssociation: providers(req) });
      return v1Association(await createAccountAssociation(deps, v2, ctx));
    },
    update: async (req, ctx) => {
      const accountAssociation = { uid: req.group, ...providers(req) };
      const v2 = create(UpdateAccountAssociationRequestSchema, { accountAssociation, updateMask: { paths: REPLACED } });
      return v1Association(await updateAccountAssociation(deps, v2, ctx));
    },
    list: (req, ctx) => listAssociationsV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteAccountAssociation(deps, create(DeleteAccountAssociationRequestSchema, { uid: req.group }), ctx)),
    // v1's AccountType and State have v2's numbers (UNKNOWN/GOOGLE/AMAZON/AZURE; UNKNOWN/Ready/NotReady).
    check: async (req) => {
      const res = await checkAccountAssociation(
        deps,
        create(CheckAccountAssociationRequestSchema, { uid: req.group, providerType: req.accountType as number }),
      );
      return create(AccountAssociationsStatusSchema, { ready: res.status as number, reason: res.reason, message: res.message });
    },
  };
}
