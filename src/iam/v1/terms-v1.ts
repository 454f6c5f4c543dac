// berth.iam.v1.Terms: the v1 shapes over AcceptTerms and ListTermsAcceptances
// of src/iam/terms/ (same rules, same event).
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { type Terms, TermsAcceptanceSchema } from '../../gen/berth/iam/v1/terms_pb.js';
import { AcceptTermsRequestSchema, ListTermsAcceptancesRequestSchema } from '../../gen/berth/iam/v2/terms_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { acceptTerms } from '../terms/accept-terms.js';
import { listTermsAcceptances } from '../terms/list-acceptances.js';
import { allItems } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';

export function termsV1Service(deps: ServiceDeps): ServiceImpl<typeof Terms> {
  return {
    acceptTerms: async (req, ctx) => {
      const res = await acceptTerms(deps, create(AcceptTermsRequestSchema, { group: req.group, documentIds: req.documentIds }), ctx);
      return { $typeName: 'berth.iam.v1.AcceptTermsResponse', group: res.group, documentIds: res.documentIds };
    },
    listAccepted: async (req, ctx) => {
      const items = await allItems(iamList('/iam/v2/terms/{group}'), async (pageSize, pageToken) => {
        const page = await listTermsAcceptances(deps, create(ListTermsAcceptancesRequestSchema, { group: req.group, pageSize, pageToken }), ctx);
        const shown = page.termsAcceptances.map((a) =>
          create(TermsAcceptanceSchema, { docId: a.docId, acceptedBy: a.acceptedBy, orgUid: a.orgUid, createdAt: a.createTime }),
        );
        return [shown, page.nextPageToken];
      });
      return { $typeName: 'berth.iam.v1.TermsList', items };
    },
  };
}
