// berth.audit.v2.AuditService: the audit log (docs/audit.md). It lives beside
// the outbox because the outbox writes it (audit-writer.ts).
import type { ServiceImpl } from '@connectrpc/connect';
import type { AuditService } from '../../gen/berth/audit/v2/audit_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listEntries } from './list-entries.js';

export function auditService(deps: ServiceDeps): ServiceImpl<typeof AuditService> {
  return {
    listEntries: (req, ctx) => listEntries(deps, req, ctx),
  };
}
