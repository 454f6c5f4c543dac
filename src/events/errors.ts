// Every error the events domain returns, made by name and declared in the catalogue.
import { Code } from '@connectrpc/connect';
import { invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const EVENTS_DOMAIN = 'events.berth.dev';
const d = EVENTS_DOMAIN;

export const subscriptionNotFound = defineError(
  { domain: d, name: 'subscriptionNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the subscription does not exist' },
  (uid: string) => notFound(d, 'events.berth.dev/Subscription', uid),
);
export const subscriptionGroupNotFound = defineError(
  {
    domain: d,
    name: 'subscriptionGroupNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: 'creating a subscription under a uid that is not a group (an organization or folder)',
  },
  (uid: string) => notFound(d, 'iam.berth.dev/Group', uid),
);
export const badSubscriptionRequest = defineError(
  {
    domain: d,
    name: 'badSubscriptionRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a missing or refused sink (not https, a refused address, userinfo, a fragment, too long), a malformed signing secret, a group nested too deeply to hold one',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const deliveryNotFound = defineError(
  {
    domain: d,
    name: 'deliveryNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: 'the subscription has no delivery of that id (it may have been pruned)',
  },
  (subscriptionUid: string, id: string) => notFound(d, 'events.berth.dev/Delivery', `${subscriptionUid}:${id.slice(0, 40)}`),
);
export const badDeliveriesRequest = defineError(
  {
    domain: d,
    name: 'badDeliveriesRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a delivery id that is not a number, an unknown status filter, a negative page_size or a page token of another query',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
