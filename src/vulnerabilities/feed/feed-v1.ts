// The v1 advisory feed (/advisory/v1/documents, /advisory/v1/metadata): the
// v2 feed's answers under v1 names. The v1 messages carry the v2 fields
// under the same numbers and types (enum values too, only their names
// differ: FPT_TYPE_*, UNSPECIFIED/ADVISORY…), so a request and an answer
// cross between the versions through the wire format, and no rule of the
// feed exists twice.
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  type DocumentFilter,
  type DocumentList,
  DocumentListSchema,
  type VulnerabilityMetadataFilter,
  VulnerabilityMetadataFilterSchema,
  type VulnerabilityMetadataList,
  VulnerabilityMetadataListSchema,
  DocumentFilterSchema,
} from '../../gen/berth/advisory/v1/advisory_pb.js';
import {
  ListDocumentsRequestSchema,
  ListDocumentsResponseSchema,
  ListVulnerabilityMetadataRequestSchema,
  ListVulnerabilityMetadataResponseSchema,
} from '../../gen/berth/advisory/v2/advisory_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listVulnerabilityMetadata } from '../metadata/list-metadata.js';
import { listDocuments } from './list-documents.js';

export async function listDocumentsV1(deps: ServiceDeps, req: DocumentFilter): Promise<DocumentList> {
  const v2 = await listDocuments(deps.store, fromBinary(ListDocumentsRequestSchema, toBinary(DocumentFilterSchema, req)));
  return fromBinary(DocumentListSchema, toBinary(ListDocumentsResponseSchema, v2));
}

export async function listVulnerabilityMetadataV1(deps: ServiceDeps, req: VulnerabilityMetadataFilter): Promise<VulnerabilityMetadataList> {
  const v2 = await listVulnerabilityMetadata(deps, fromBinary(ListVulnerabilityMetadataRequestSchema, toBinary(VulnerabilityMetadataFilterSchema, req)));
  return fromBinary(VulnerabilityMetadataListSchema, toBinary(ListVulnerabilityMetadataResponseSchema, v2));
}
