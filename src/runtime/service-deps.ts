import type { KeyObject } from 'node:crypto';
import type { PageTokens } from '../list/page-token.js';
import type { TermsDocument } from '../iam/terms/terms-documents.js';
import type { ListTotals } from '../list/list-totals.js';
import type { Store } from '../store/store.js';
import type { EventSettings } from '../events/event-settings.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';

/** Who may create root organizations through the API (`--allow-org-creation`). */
export type OrgCreationPolicy = 'owners' | 'anyone' | 'nobody';

/** What every service implementation is built with. */
export interface ServiceDeps {
  store: Store;
  pageTokens: PageTokens;
  counts: ListTotals;
  orgCreation: OrgCreationPolicy;
  /** The operator's secrets key (--secrets-key-file): seals secrets stored at rest; none without it. */
  secrets?: KeyObject;
  /** --allow-insecure-issuers: issuers on loopback and private addresses, plain http to loopback (local testing). */
  allowInsecureIssuers: boolean;
  /** The legal documents groups may accept (`--terms-file`); none by default. */
  termsDocuments: readonly TermsDocument[];
  /** Event namespace, delivery audience and limits, and whether plain-http loopback sinks are allowed. */
  events: EventSettings;
  /** --feed-requires-auth: the advisory feed's RPCs (iam disabled in the proto) ask for a valid token (any identity). */
  feedRequiresAuth: boolean;
  /** The registry's blob store, for the API's reads of image content (v1 GetImageConfig); none when the registry is off. */
  blobs?: BlobStore;
  /** Where clients reach the API (--public-url): SCIM endpoint URLs are made from it. */
  publicUrl: string;
}
