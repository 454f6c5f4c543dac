import type { DescService } from '@bufbuild/protobuf';

const domains = new WeakMap<DescService, string>(); // asked on every request

/** "berth.iam.v2.GroupsService" → "iam.berth.dev" (the ErrorInfo domain). */
export function errorDomainOf(service: DescService): string {
  let domain = domains.get(service);
  if (domain === undefined) {
    domain = `${service.typeName.split('.')[1] ?? 'api'}.berth.dev`;
    domains.set(service, domain);
  }
  return domain;
}

/** The domain of a request path that matched no route: "/iam/v2/x" → "iam.berth.dev". */
export function errorDomainOfPath(pathname: string): string {
  const first = pathname.split('/')[1] ?? '';
  return /^[a-z][a-z0-9-]{0,30}$/.test(first) ? `${first}.berth.dev` : 'api.berth.dev';
}
