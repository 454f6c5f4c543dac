import type { ServiceImpl } from '@connectrpc/connect';
import type { TermsService } from '../../gen/berth/iam/v2/terms_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { acceptTerms } from './accept-terms.js';
import { listTermsAcceptances } from './list-acceptances.js';

export function termsService(deps: ServiceDeps): ServiceImpl<typeof TermsService> {
  return {
    acceptTerms: (req, ctx) => acceptTerms(deps, req, ctx),
    listTermsAcceptances: (req, ctx) => listTermsAcceptances(deps, req, ctx),
  };
}
