// ListResolvedVulnsReports, v2 (/advisory/v2/images/resolvedVulns) and its v1
// twin (/advisory/v1/images/resolved_vulns): one implementation
// (resolved-by-day.ts), two wire shapes. The RPCs belong to the advisory
// services whose other methods src/vulnerabilities/feed serves; they are
// joined in src/server/services.ts.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { isoToTimestamp } from '../../core/clock.js';
import {
  type ResolvedVulnsReportFilter,
  type ResolvedVulnsReportList,
  ResolvedVulnsReportListSchema,
  type SecurityAdvisoryService as SecurityAdvisoryV1Service,
  Severity_Type as SeverityV1Type,
} from '../../gen/berth/advisory/v1/advisory_pb.js';
import {
  type ListResolvedVulnsReportsRequest,
  type ListResolvedVulnsReportsResponse,
  ListResolvedVulnsReportsResponseSchema,
  type SecurityAdvisoryService,
  Severity_Type,
} from '../../gen/berth/advisory/v2/advisory_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { feedGroup } from '../../vulnerabilities/feed/feed-group.js';
import { ADVISORY_FEED_DOMAIN } from '../../vulnerabilities/errors.js';
import { dayStartIso } from '../tag-days/utc-days.js';
import { type ResolvedDay, resolvedByDay } from './resolved-by-day.js';
import { resolvedRequestOf, type ResolvedRequestFields } from './resolved-request.js';

async function resolved(deps: ServiceDeps, req: ResolvedRequestFields, ctx: HandlerContext): Promise<ResolvedDay[]> {
  const request = resolvedRequestOf(req);
  const caller = callerOf(ctx, ADVISORY_FEED_DOMAIN);
  return resolvedByDay(deps.store.db, caller, request, await feedGroup(deps.store));
}

/** The stored type name (TYPE_CVSS_V3) as each version's enum. */
const v2Type = (t: string) => Severity_Type[t.replace(/^TYPE_/, '') as keyof typeof Severity_Type] ?? Severity_Type.UNSPECIFIED;
const v1Type = (t: string) => SeverityV1Type[t.replace(/^TYPE_/, '') as keyof typeof SeverityV1Type] ?? SeverityV1Type.UNSPECIFIED;

export async function listResolvedVulnsReports(
  deps: ServiceDeps,
  req: ListResolvedVulnsReportsRequest,
  ctx: HandlerContext,
): Promise<ListResolvedVulnsReportsResponse> {
  const days = await resolved(deps, req, ctx);
  return create(ListResolvedVulnsReportsResponseSchema, {
    resolvedVulnsReports: days.map((d) => ({
      date: isoToTimestamp(dayStartIso(d.day)),
      resolvedVulns: d.vulns.map((v) => ({
        id: v.id,
        aliases: v.aliases,
        cvssSeverities: v.severities.map((s) => ({ type: v2Type(s.type), score: s.score })),
      })),
    })),
  });
}

export async function listResolvedVulnsReportsV1(deps: ServiceDeps, req: ResolvedVulnsReportFilter, ctx: HandlerContext): Promise<ResolvedVulnsReportList> {
  const days = await resolved(deps, req, ctx);
  return create(ResolvedVulnsReportListSchema, {
    items: days.map((d) => ({
      date: isoToTimestamp(dayStartIso(d.day)),
      resolvedVulns: d.vulns.map((v) => ({
        id: v.id,
        aliases: v.aliases,
        cvssSeverities: v.severities.map((s) => ({ type: v1Type(s.type), score: s.score })),
      })),
    })),
  });
}

/** The v2 method, joined to the feed's service in src/server/services.ts. */
export function resolvedVulnsMethods(deps: ServiceDeps): Pick<ServiceImpl<typeof SecurityAdvisoryService>, 'listResolvedVulnsReports'> {
  return { listResolvedVulnsReports: (req, ctx) => listResolvedVulnsReports(deps, req, ctx) };
}

export function resolvedVulnsV1Service(deps: ServiceDeps): Pick<ServiceImpl<typeof SecurityAdvisoryV1Service>, 'listResolvedVulnsReports'> {
  return { listResolvedVulnsReports: (req, ctx) => listResolvedVulnsReportsV1(deps, req, ctx) };
}
