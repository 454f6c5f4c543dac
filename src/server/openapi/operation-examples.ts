// An example request and answer for at least one operation of every service,
// put into the OpenAPI document (parameter, request body and response
// `examples`, under one name per operation). test/api/openapi.test.ts replays
// each against a fresh server, with EXAMPLE_ORG and EXAMPLE_OWNER replaced by
// its organization and owner identity, and checks the status and the shape.
// They run in this order on one server: the creates come before the lists
// that show what they made.
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';

/** The organization (root group) uid the examples use. */
export const EXAMPLE_ORG = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
/** The owner identity uid (root-level) the examples use. */
export const EXAMPLE_OWNER = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';
const VIEWER = '63921b2c44617e3f2603851537be0123af4a57d7';
const OWNER_ROLE = '20430dd6f14240ac1f61492aec1a0c497a7deecf';
const REPO = `${EXAMPLE_ORG}/a0114a30f2016b1c`;
const TIME = '2026-01-28T12:54:21.189Z';

export interface OperationExample {
  operationId: string;
  summary: string;
  /** Path parameters by the document's names for them. */
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: JsonValue;
  status: number;
  response: JsonValue;
}

const page = (key: string, items: JsonValue[] = []): JsonObject => ({
  [key]: items,
  nextPageToken: '',
  totalCount: String(items.length),
  skipped: 0,
});
const items = (list: JsonValue[] = []): JsonObject => ({ items: list });
const inOrg = { 'uidp.descendantsOf': EXAMPLE_ORG };

export const OPERATION_EXAMPLES: readonly OperationExample[] = [
  { operationId: 'berth.ping.v2.PingService.Ping', summary: 'Ping', status: 200, response: { response: 'pong' } },
  { operationId: 'berth.ping.v1.PingService.Ping', summary: 'Ping', status: 200, response: { response: 'pong' } },
  {
    operationId: 'berth.registry.v2.ReposService.CreateRepo',
    summary: 'Create a repo in the organization',
    path: { uid: EXAMPLE_ORG },
    body: { name: 'example-app', description: 'An example' },
    status: 200,
    response: { uid: REPO, name: 'example-app', description: 'An example', createTime: TIME, updateTime: TIME },
  },
  {
    operationId: 'berth.registry.v2.TagsService.ListTags',
    summary: "The organization's tags",
    query: { ...inOrg, pageSize: '10' },
    status: 200,
    response: page('tags'),
  },
  {
    operationId: 'berth.registry.v2.ImagesService.GetPlatforms',
    summary: 'A repo that does not exist',
    path: { repo_uid: `${EXAMPLE_ORG}/0123456789abcdef`, digest: `sha256:${'0'.repeat(64)}` },
    status: 404,
    response: {
      code: 5,
      message: `Not found: registry.berth.dev/Repo "${EXAMPLE_ORG}/0123456789abcdef" not found`,
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'NOT_FOUND', domain: 'registry.berth.dev' },
        {
          '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
          resourceType: 'registry.berth.dev/Repo',
          resourceName: `${EXAMPLE_ORG}/0123456789abcdef`,
          description: 'not found',
        },
      ],
    },
  },
  {
    operationId: 'berth.registry.v1.RegistryService.ListRepos',
    summary: 'A repo by name',
    query: { 'uidp.childrenOf': EXAMPLE_ORG, name: 'example-app' },
    status: 200,
    response: items([{ id: REPO, name: 'example-app', readme: '', createTime: TIME, description: 'An example' }]),
  },
  {
    operationId: 'berth.registry.v1.VulnerabilitiesService.ListVulnCountReports',
    summary: "A repo's vulnerability counts",
    query: { repo: 'example-app' },
    status: 200,
    response: items(),
  },
  {
    operationId: 'berth.iam.v2.RolesService.GetRole',
    summary: 'The built-in viewer role',
    path: { uid: VIEWER },
    status: 200,
    response: {
      uid: VIEWER,
      name: 'viewer',
      description: 'Viewer Role (built-in)',
      capabilities: ['CAP_IAM_GROUPS_LIST', 'CAP_REPO_LIST', 'CAP_TAG_LIST'],
    },
  },
  {
    operationId: 'berth.iam.v2.RoleBindingsService.ListRoleBindings',
    summary: "The organization's bindings",
    query: { 'uidp.childrenOf': EXAMPLE_ORG },
    status: 200,
    response: page('roleBindings', [
      {
        uid: `${EXAMPLE_ORG}/dda0ac2edb2dcd52`,
        identity: {
          uid: EXAMPLE_OWNER,
          name: 'owner',
          description: 'Created on first start',
          subject: 'owner@example.com',
          issuer: 'berth:static-keys',
          email: '',
        },
        group: { uid: EXAMPLE_ORG, name: 'example.com', description: 'Root organization group' },
        role: { uid: OWNER_ROLE, name: 'owner', description: 'Owner Role (built-in)' },
        createTime: TIME,
      },
    ]),
  },
  {
    operationId: 'berth.iam.v2.GroupsService.CreateGroup',
    summary: 'Create a group in the organization',
    path: { uid: EXAMPLE_ORG },
    body: { name: 'example-team' },
    status: 200,
    response: { uid: `${EXAMPLE_ORG}/183bf3b43f9ab4a4`, name: 'example-team', description: '', verified: false, createTime: TIME, updateTime: TIME },
  },
  {
    operationId: 'berth.iam.v2.IdentitiesService.GetIdentity',
    summary: 'The owner identity',
    path: { uid: EXAMPLE_OWNER },
    status: 200,
    response: {
      uid: EXAMPLE_OWNER,
      name: 'owner',
      description: 'Created on first start',
      email: '',
      emailUnverified: '',
      company: '',
      lastSeenTime: TIME,
      createTime: TIME,
      updateTime: TIME,
      staticKeys: {
        issuer: 'berth:static-keys',
        subject: 'owner@example.com',
        issuerKeys: '{"keys":[{"kty":"EC","crv":"P-256","x":"…","y":"…","kid":"admin","alg":"ES256","use":"sig"}]}',
        expirationTime: TIME,
        audiences: [],
      },
    },
  },
  {
    operationId: 'berth.iam.v2.IdentityProvidersService.ListIdentityProviders',
    summary: "The organization's identity providers",
    query: inOrg,
    status: 200,
    response: page('identityProviders'),
  },
  {
    operationId: 'berth.iam.v2.ExternalGroupRoleMappingsService.ListExternalGroupRoleMappings',
    summary: "The organization's mappings",
    query: inOrg,
    status: 200,
    response: page('externalGroupRoleMappings'),
  },
  {
    operationId: 'berth.iam.v2.GroupInvitesService.ListGroupInvites',
    summary: "The organization's invites",
    query: inOrg,
    status: 200,
    response: page('groupInvites'),
  },
  {
    operationId: 'berth.iam.v2.AccountAssociationsService.ListAccountAssociations',
    summary: "The organization's account associations",
    query: inOrg,
    status: 200,
    response: page('accountAssociations'),
  },
  {
    operationId: 'berth.iam.v2.TermsService.ListTermsAcceptances',
    summary: 'Terms the organization accepted',
    path: { group: EXAMPLE_ORG },
    status: 200,
    response: page('termsAcceptances'),
  },
  {
    operationId: 'berth.audit.v2.AuditService.ListEntries',
    summary: "The organization's audit entries from a time on (none yet)",
    query: { ...inOrg, startTime: '2099-01-01T00:00:00Z', pageSize: '10' },
    status: 200,
    response: page('entries'),
  },
  {
    operationId: 'berth.events.v1.Identities.UpdateMetadata',
    summary: "The caller's own metadata (the legacy v1 service)",
    body: { updatesOptIn: true },
    status: 200,
    response: { updatesOptIn: true },
  },
  {
    operationId: 'berth.libraries.v2.ArtifactsService.ListArtifacts',
    summary: 'Python libraries in the catalogue',
    query: { ecosystems: 'ECOSYSTEM_PYTHON', pageSize: '10' },
    status: 200,
    response: page('artifacts'),
  },
  {
    operationId: 'berth.libraries.v1.Artifacts.List',
    summary: 'Python libraries in the catalogue (v1)',
    query: { ecosystems: 'PYTHON' },
    status: 200,
    response: { items: [], nextPageToken: '', totalArtifacts: 0, skipped: 0 },
  },
  {
    operationId: 'berth.iam.v1.Groups.List',
    summary: 'The organization',
    query: { id: EXAMPLE_ORG },
    status: 200,
    response: items([{ id: EXAMPLE_ORG, name: 'example.com', description: 'Root organization group', verified: false }]),
  },
  {
    operationId: 'berth.iam.v1.Identities.List',
    summary: 'Identities made in the organization',
    query: { 'uidp.childrenOf': EXAMPLE_ORG },
    status: 200,
    response: items(),
  },
  {
    operationId: 'berth.iam.v1.Roles.List',
    summary: 'The built-in viewer role',
    query: { id: VIEWER },
    status: 200,
    response: items([{ id: VIEWER, name: 'viewer', description: 'Viewer Role (built-in)', capabilities: ['groups.list', 'repo.list', 'tag.list'] }]),
  },
  {
    operationId: 'berth.iam.v1.RoleBindings.List',
    summary: "The organization's bindings",
    query: { 'uidp.childrenOf': EXAMPLE_ORG },
    status: 200,
    response: items([
      {
        id: `${EXAMPLE_ORG}/dda0ac2edb2dcd52`,
        group: { id: EXAMPLE_ORG, name: 'example.com', description: 'Root organization group', verified: false },
        identity: EXAMPLE_OWNER,
        role: { id: OWNER_ROLE, name: 'owner', description: 'Owner Role (built-in)', capabilities: [] },
        email: '',
        claimMatchIssuer: 'berth:static-keys',
        claimMatchSubject: 'owner@example.com',
        created_at: TIME,
      },
    ]),
  },
  { operationId: 'berth.iam.v1.IdentityProviders.List', summary: "The organization's providers", query: inOrg, status: 200, response: items() },
  {
    operationId: 'berth.iam.v1.ExternalGroupRoleMappings.List',
    summary: "The organization's mappings",
    query: inOrg,
    status: 200,
    response: items(),
  },
  { operationId: 'berth.iam.v1.GroupInvites.List', summary: "The organization's invites", query: { group: EXAMPLE_ORG }, status: 200, response: items() },
  {
    operationId: 'berth.iam.v1.GroupAccountAssociations.List',
    summary: "The organization's association",
    query: { group: EXAMPLE_ORG },
    status: 200,
    response: items(),
  },
  { operationId: 'berth.iam.v1.Terms.ListAccepted', summary: 'Terms the organization accepted', path: { group: EXAMPLE_ORG }, status: 200, response: items() },
  {
    operationId: 'berth.auth.v1.AuthService.Register',
    summary: 'An invite code that is not valid',
    body: { code: 'not-a-code' },
    status: 400,
    response: {
      code: 3,
      message: 'Invalid argument: code: the invite code is not valid: it is mistyped, or its invite was deleted',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_ARGUMENT', domain: 'iam.berth.dev' },
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'code', description: 'the invite code is not valid: it is mistyped, or its invite was deleted' }],
        },
      ],
    },
  },
  {
    operationId: 'berth.events.v2.SubscriptionsService.ListSubscriptions',
    summary: "The organization's subscriptions",
    query: inOrg,
    status: 200,
    response: page('subscriptions'),
  },
  { operationId: 'berth.events.v1.SubscriptionsService.List', summary: "The organization's subscriptions", query: inOrg, status: 200, response: items() },
  {
    operationId: 'berth.vulnerabilities.v2.AdvisoriesService.ListAdvisories',
    summary: "The organization's advisories",
    query: inOrg,
    status: 200,
    response: page('advisories'),
  },
  {
    operationId: 'berth.vulnerabilities.v1.AdvisoriesService.List',
    summary: "The organization's advisories",
    query: inOrg,
    status: 200,
    response: { id: '', items: [], nextPageToken: '', totalCount: '0' },
  },
  {
    operationId: 'berth.advisory.v2.SecurityAdvisoryService.ListDocuments',
    summary: "A package's advisories",
    query: { id: 'openssl' },
    status: 200,
    response: { documents: [] },
  },
  {
    operationId: 'berth.advisory.v1.SecurityAdvisoryService.ListDocuments',
    summary: "A package's advisories",
    query: { id: 'openssl' },
    status: 200,
    response: items(),
  },
];

function operationById(doc: JsonObject, id: string): JsonObject {
  for (const item of Object.values(doc.paths as Record<string, Record<string, JsonObject>>)) {
    for (const op of Object.values(item)) if (op.operationId === id) return op;
  }
  throw new Error(`example for ${id}: no such operation`);
}

/** The example name of an operation: one per operation. */
export const EXAMPLE_NAME = 'example';

/** Puts each example into its operation; an example naming a parameter the operation lacks is an error. */
export function applyExamples(doc: JsonObject): void {
  for (const ex of OPERATION_EXAMPLES) {
    const op = operationById(doc, ex.operationId);
    const named = (value: JsonValue) => ({ [EXAMPLE_NAME]: { summary: ex.summary, value } });
    const params = (op.parameters as JsonObject[] | undefined) ?? [];
    for (const [where, values] of [['path', ex.path] as const, ['query', ex.query] as const]) {
      for (const [name, value] of Object.entries(values ?? {})) {
        const p = params.find((x) => x.in === where && x.name === name);
        if (!p) throw new Error(`example for ${ex.operationId}: no ${where} parameter ${name}`);
        p.examples = named(value);
      }
    }
    if (ex.body !== undefined) {
      const content = ((op.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined)?.['application/json'];
      if (!content) throw new Error(`example for ${ex.operationId}: the operation takes no JSON body`);
      content.examples = named(ex.body);
    }
    const responses = op.responses as Record<string, JsonObject>;
    const status = String(ex.status);
    responses[status] ??= {
      description: 'An error (AIP-193)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/google.rpc.Status' } } },
    };
    const content = (responses[status].content as Record<string, JsonObject>)['application/json'];
    content.examples = named(ex.response);
  }
}
