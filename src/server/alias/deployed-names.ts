// The deployed API's package, service and method names for Berth's protos
// (reference deployed-api-protos.md §0 and §1). Pure data with no imports:
// scripts/generate-alias.js reads this file directly at generate time, and the
// server builds the same alias from it at start.

/** A Berth package and the deployed packages its files are served under. */
export interface PackageAlias {
  readonly berth: string;
  /** More than one for the v2 domains: v2beta1 and v2 are the same protos under two version tokens. */
  readonly deployed: readonly string[];
}

// berth.auth.v1 (Register) has no alias: the deployed Auth service is served
// by the issuer host, and its RegistrationRequest carries the code inside
// `human` (field 1, a message) where Berth's carries it as field 1, a string.
export const DEPLOYED_PACKAGES: readonly PackageAlias[] = [
  { berth: 'berth.common.v2', deployed: ['chainguard.platform.common'] },
  { berth: 'berth.capabilities.v1', deployed: ['chainguard.capabilities'] },
  { berth: 'berth.tenant.v1', deployed: ['chainguard.platform.tenant'] },
  { berth: 'berth.iam.v1', deployed: ['chainguard.platform.iam'] },
  { berth: 'berth.iam.v2', deployed: ['chainguard.platform.iam.v2beta1', 'chainguard.platform.iam.v2'] },
  { berth: 'berth.registry.v1', deployed: ['chainguard.platform.registry'] },
  { berth: 'berth.registry.v2', deployed: ['chainguard.platform.registry.v2beta1', 'chainguard.platform.registry.v2'] },
  { berth: 'berth.events.v1', deployed: ['chainguard.platform.events'] },
  { berth: 'berth.events.v2', deployed: ['chainguard.platform.events.v2'] },
  { berth: 'berth.ping.v1', deployed: ['chainguard.platform.ping'] },
  { berth: 'berth.ping.v2', deployed: ['chainguard.platform.ping.v2beta1', 'chainguard.platform.ping.v2'] },
  { berth: 'berth.advisory.v1', deployed: ['chainguard.platform.advisory'] },
  { berth: 'berth.advisory.v2', deployed: ['chainguard.platform.advisory.v2'] },
  { berth: 'berth.vulnerabilities.v1', deployed: ['chainguard.platform.vulnerabilities.v1'] },
  { berth: 'berth.vulnerabilities.v2', deployed: ['chainguard.platform.vulnerabilities.v2'] },
  { berth: 'berth.libraries.v1', deployed: ['chainguard.platform.libraries'] },
  { berth: 'berth.libraries.v2', deployed: ['chainguard.platform.libraries.v2'] },
];

/** Berth service (full name) → deployed service name, where the two differ. */
export const DEPLOYED_SERVICE_NAMES: Readonly<Record<string, string>> = {
  'berth.registry.v1.RegistryService': 'Registry',
  'berth.registry.v1.VulnerabilitiesService': 'Vulnerabilities',
  'berth.events.v1.SubscriptionsService': 'Subscriptions',
  'berth.advisory.v1.SecurityAdvisoryService': 'SecurityAdvisory',
  'berth.vulnerabilities.v1.AdvisoriesService': 'Advisories',
};

/** Berth method ("service/Method") → deployed method name, where the two differ (none today: Berth kept them). */
export const DEPLOYED_METHOD_NAMES: Readonly<Record<string, string>> = {};
