// The list of services Berth serves. Adding a domain: proto → generate →
// folder → one line here → tests → docs.
import type { DescService } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { AccountAssociationsService } from '../gen/berth/iam/v2/account_associations_pb.js';
import { AuthService } from '../gen/berth/auth/v1/auth_pb.js';
import { GroupInvitesService } from '../gen/berth/iam/v2/group_invites_pb.js';
import { GroupsService } from '../gen/berth/iam/v2/groups_pb.js';
import { IdentitiesService } from '../gen/berth/iam/v2/identities_pb.js';
import { IdentityProvidersService } from '../gen/berth/iam/v2/identity_providers_pb.js';
import { ExternalGroupRoleMappingsService } from '../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import { PingService } from '../gen/berth/ping/v2/ping_pb.js';
import { PingService as PingV1Service } from '../gen/berth/ping/v1/ping_pb.js';
import { ImagesService } from '../gen/berth/registry/v2/images_pb.js';
import { ReposService } from '../gen/berth/registry/v2/repos_pb.js';
import { RoleBindingsService } from '../gen/berth/iam/v2/role_bindings_pb.js';
import { RolesService } from '../gen/berth/iam/v2/roles_pb.js';
import { TagsService } from '../gen/berth/registry/v2/tags_pb.js';
import { TermsService } from '../gen/berth/iam/v2/terms_pb.js';
import { RegistryService } from '../gen/berth/registry/v1/registry_pb.js';
import { VulnerabilitiesService } from '../gen/berth/registry/v1/vulnerabilities_pb.js';
import { SubscriptionsService } from '../gen/berth/events/v2/subscriptions_pb.js';
import { SubscriptionsService as SubscriptionsV1Service } from '../gen/berth/events/v1/subscriptions_pb.js';
import { Identities as LegacyIdentitiesV1 } from '../gen/berth/events/v1/identities_pb.js';
import { AdvisoriesService } from '../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { AdvisoriesService as AdvisoriesV1Service } from '../gen/berth/vulnerabilities/v1/advisories_pb.js';
import { advisoriesService } from '../vulnerabilities/advisories/service.js';
import { advisoriesV1Service } from '../vulnerabilities/advisories-v1/service.js';
import { subscriptionsService } from '../events/subscriptions/service.js';
import { subscriptionsV1Service } from '../events/subscriptions-v1/service.js';
import { accountAssociationsService } from '../iam/account-associations/service.js';
import { authService } from '../iam/group-invites/registration-service.js';
import { groupInvitesService } from '../iam/group-invites/service.js';
import { groupsService } from '../iam/groups/service.js';
import { termsService } from '../iam/terms/service.js';
import { identitiesService } from '../iam/identities/service.js';
import { identityProvidersService } from '../iam/identity-providers/service.js';
import { externalGroupRoleMappingsService } from '../iam/group-mappings/service.js';
import { pingService } from '../ping/ping-service.js';
import { pingV1Service } from '../ping/ping-v1-service.js';
import { imagesService } from '../registry/images/service.js';
import { reposService } from '../registry/repos/service.js';
import { roleBindingsService } from '../iam/role-bindings/service.js';
import { rolesService } from '../iam/roles/service.js';
import { rolePreflights } from '../iam/roles/builtin-preflight.js';
import type { GuardOptions } from './rpc-guard.js';
import { tagsService } from '../registry/tags/service.js';
import { registryV1Service } from '../registry/registry-v1/service.js';
import { vulnReportsV1Service } from '../scanning/vuln-reports-v1/service.js';
import { sbomV1Methods } from '../scanning/sbom-v1/service.js';
import { vulnReportV1Methods } from '../scanning/report-v1/service.js';
import type { ServiceDeps } from '../runtime/service-deps.js';
import { Groups as GroupsV1 } from '../gen/berth/iam/v1/groups_pb.js';
import { Identities as IdentitiesV1 } from '../gen/berth/iam/v1/identities_pb.js';
import { Roles as RolesV1 } from '../gen/berth/iam/v1/roles_pb.js';
import { RoleBindings as RoleBindingsV1 } from '../gen/berth/iam/v1/role_bindings_pb.js';
import { IdentityProviders as IdentityProvidersV1 } from '../gen/berth/iam/v1/identity_providers_pb.js';
import { GroupInvites as GroupInvitesV1 } from '../gen/berth/iam/v1/group_invites_pb.js';
import { GroupAccountAssociations as AccountAssociationsV1 } from '../gen/berth/iam/v1/account_associations_pb.js';
import { ExternalGroupRoleMappings as ExternalGroupRoleMappingsV1 } from '../gen/berth/iam/v1/external_group_role_mappings_pb.js';
import { Terms as TermsV1 } from '../gen/berth/iam/v1/terms_pb.js';
import { groupsV1Service } from '../iam/v1/groups-v1.js';
import { identitiesV1Service } from '../iam/v1/identities-v1.js';
import { roleV1Preflights, rolesV1Service } from '../iam/v1/roles-v1.js';
import { roleBindingsV1Service } from '../iam/v1/role-bindings-v1.js';
import { identityProvidersV1Service } from '../iam/v1/identity-providers-v1.js';
import { groupInvitesV1Service } from '../iam/v1/group-invites-v1.js';
import { accountAssociationsV1Service } from '../iam/v1/account-associations-v1.js';
import { groupMappingsV1Service } from '../iam/v1/group-mappings-v1.js';
import { termsV1Service } from '../iam/v1/terms-v1.js';
import { ArtifactsService } from '../gen/berth/libraries/v2/artifacts_pb.js';
import { Artifacts as ArtifactsV1Service } from '../gen/berth/libraries/v1/artifacts_pb.js';
import { artifactsService } from '../libraries/artifacts/service.js';
import { artifactsV1Service } from '../libraries/artifacts-v1/service.js';
import { legacyIdentitiesV1Service } from '../iam/v1/legacy-identities-v1.js';
import { SecurityAdvisoryService } from '../gen/berth/advisory/v2/advisory_pb.js';
import { securityAdvisoryService, securityAdvisoryV1Service } from '../vulnerabilities/feed/service.js';
import { SecurityAdvisoryService as SecurityAdvisoryV1Service } from '../gen/berth/advisory/v1/advisory_pb.js';
import { resolvedVulnsMethods, resolvedVulnsV1Service } from '../scanning/resolved-vulns/list-resolved-vulns.js';
import { AuditService } from '../gen/berth/audit/v2/audit_pb.js';
import { auditService } from '../events/audit/service.js';

/**
 * A served service: its descriptor (what reflection, the docs and the access
 * matrix read), its implementation over the runtime's dependencies, and how
 * the guard wraps it (preflights; requireToken, an operator's choice such as
 * --feed-requires-auth).
 */
export interface ServiceEntry {
  service: DescService;
  impl(deps: ServiceDeps): ServiceImpl<DescService>;
  guard?(deps: ServiceDeps): GuardOptions;
}

/** One served service: its implementation must answer every method the proto declares. */
function entry<S extends DescService>(service: S, impl: (deps: ServiceDeps) => ServiceImpl<S>, guard?: (deps: ServiceDeps) => GuardOptions): ServiceEntry {
  return { service, impl: impl as unknown as (deps: ServiceDeps) => ServiceImpl<DescService>, guard };
}

/** Every service Berth serves, in the order of docs/api.md. */
export const SERVICES: readonly ServiceEntry[] = [
  entry(PingService, () => pingService()),
  entry(PingV1Service, () => pingV1Service()),
  entry(ReposService, reposService),
  entry(TagsService, tagsService),
  entry(ImagesService, imagesService),
  entry(RegistryService, (deps) => ({ ...registryV1Service(deps), ...sbomV1Methods(deps), ...vulnReportV1Methods(deps) })),
  entry(VulnerabilitiesService, vulnReportsV1Service),
  entry(RolesService, rolesService, () => ({ preflights: rolePreflights })),
  entry(RoleBindingsService, roleBindingsService),
  entry(GroupsService, groupsService),
  entry(IdentitiesService, identitiesService),
  entry(IdentityProvidersService, identityProvidersService),
  entry(ExternalGroupRoleMappingsService, externalGroupRoleMappingsService),
  entry(GroupInvitesService, groupInvitesService),
  entry(AccountAssociationsService, accountAssociationsService),
  entry(TermsService, termsService),
  entry(GroupsV1, groupsV1Service),
  entry(IdentitiesV1, identitiesV1Service),
  entry(RolesV1, rolesV1Service, () => ({ preflights: roleV1Preflights })),
  entry(RoleBindingsV1, roleBindingsV1Service),
  entry(IdentityProvidersV1, identityProvidersV1Service),
  entry(ExternalGroupRoleMappingsV1, groupMappingsV1Service),
  entry(GroupInvitesV1, groupInvitesV1Service),
  entry(AccountAssociationsV1, accountAssociationsV1Service),
  entry(TermsV1, termsV1Service),
  entry(LegacyIdentitiesV1, legacyIdentitiesV1Service),
  entry(AuthService, authService),
  entry(SubscriptionsService, subscriptionsService),
  entry(SubscriptionsV1Service, subscriptionsV1Service),
  entry(AuditService, auditService),
  entry(AdvisoriesService, advisoriesService),
  entry(AdvisoriesV1Service, advisoriesV1Service),
  entry(
    SecurityAdvisoryService,
    (deps) => ({ ...securityAdvisoryService(deps), ...resolvedVulnsMethods(deps) }),
    (deps) => ({ requireToken: deps.feedRequiresAuth }),
  ),
  entry(
    SecurityAdvisoryV1Service,
    (deps) => ({ ...securityAdvisoryV1Service(deps), ...resolvedVulnsV1Service(deps) }),
    (deps) => ({ requireToken: deps.feedRequiresAuth }),
  ),
  entry(ArtifactsService, artifactsService),
  entry(ArtifactsV1Service, artifactsV1Service),
];
