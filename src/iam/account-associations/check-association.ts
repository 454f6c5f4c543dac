// CheckAccountAssociation. The deployed API exchanges credentials with the
// cloud provider live; Berth holds no cloud credentials, so it answers what it
// can know: a provider the association does not configure is NOT_READY
// ("not configured"), and for one it does configure it says plainly that it
// does not check (UNIMPLEMENTED, accountCheckUnsupported) rather than claim
// READY for something it never tried.
import {
  AccountProviderType,
  CheckStatus,
  type CheckAccountAssociationRequest,
  type CheckAccountAssociationResponse,
} from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { accountCheckUnsupported, badIamRequest } from '../errors.js';
import { associationFromRow, loadAssociationRow } from './association-row.js';

const PROVIDERS: Partial<Record<AccountProviderType, { key: 'google' | 'amazon' | 'azure'; label: string }>> = {
  [AccountProviderType.GOOGLE]: { key: 'google', label: 'Google Cloud' },
  [AccountProviderType.AMAZON]: { key: 'amazon', label: 'AWS' },
  [AccountProviderType.AZURE]: { key: 'azure', label: 'Azure' },
};

export async function checkAccountAssociation(deps: ServiceDeps, req: CheckAccountAssociationRequest): Promise<CheckAccountAssociationResponse> {
  const provider = PROVIDERS[req.providerType];
  if (!provider) throw badIamRequest([{ field: 'provider_type', description: 'provider_type must be GOOGLE, AMAZON or AZURE' }]);
  const association = associationFromRow(await loadAssociationRow(deps.store.db, req.uid));
  if (association[provider.key]) throw accountCheckUnsupported(provider.label);
  return {
    $typeName: 'berth.iam.v2.CheckAccountAssociationResponse',
    status: CheckStatus.NOT_READY,
    reason: 'not configured',
    message: `the association has no ${provider.label} settings`,
  };
}
