import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListIdentityProvidersRequest, ListIdentityProvidersResponse } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { providerFromRow, PUBLIC_COLUMNS, type ProviderRow } from './provider-row.js';

const SPEC: ListSpec = {
  table: 'identity_providers',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
  select: PUBLIC_COLUMNS, // never the client secret
};

export async function listIdentityProviders(deps: ServiceDeps, req: ListIdentityProvidersRequest, ctx: HandlerContext): Promise<ListIdentityProvidersResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_IDENTITY_PROVIDERS_LIST);
  const conditions: Condition[] = [];
  if (req.name !== '') conditions.push(equal('name', req.name));
  const page = await runList<ProviderRow>(deps, SPEC, req, { conditions, key: { name: req.name } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListIdentityProvidersResponse',
    identityProviders: page.rows.map(providerFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}
