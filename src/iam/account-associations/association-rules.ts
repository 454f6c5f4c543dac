// What makes an account association valid: the deployed API's rules (a name
// of the resource-name pattern, a description of at most 512 printable
// characters, a 12-digit AWS account, a Google project id and number
// together, an Azure tenant with its client ids) plus the providers' own id
// formats and bounds on every list, so a body cannot grow without limit.
import type { AccountAssociation } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { FieldViolation } from '../../core/api-error.js';

const NAME = /^[a-z0-9 ._-]{1,63}$/;
const DESCRIPTION = /^[^\p{C}\n\t]{0,512}$/u;
const AWS_ACCOUNT = /^[0-9]{12}$/;
// Google's rules: 6–30 characters, a lower-case letter first, no hyphen last.
const GCP_PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const GCP_PROJECT_NUMBER = /^[1-9][0-9]{0,19}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const COMPONENT = /^[A-Za-z0-9._-]{1,63}$/;
const MAX_CLIENT_IDS = 50;
const MAX_APPS = 50;
const MAX_INSTALLATIONS = 100;
const MAX_GITHUB_NAME = 100;

type Fields = Pick<AccountAssociation, 'name' | 'description' | 'amazon' | 'google' | 'azure' | 'github'>;

function providerViolations(a: Fields, at: string, out: FieldViolation[]): void {
  if (a.amazon && !AWS_ACCOUNT.test(a.amazon.account)) {
    out.push({ field: `${at}amazon.account`, description: 'AWS account ID must match "^[0-9]{12}$"' });
  }
  if (a.google) {
    if (!GCP_PROJECT_ID.test(a.google.projectId)) {
      out.push({ field: `${at}google.project_id`, description: 'project_id must be a Google Cloud project id: 6-30 lower-case letters, digits or hyphens' });
    }
    if (!GCP_PROJECT_NUMBER.test(a.google.projectNumber)) {
      out.push({ field: `${at}google.project_number`, description: 'project_number must be a Google Cloud project number (digits)' });
    }
  }
  if (a.azure) {
    if (!UUID.test(a.azure.tenantId)) out.push({ field: `${at}azure.tenant_id`, description: 'tenant_id must be a UUID' });
    const ids = Object.entries(a.azure.clientIds);
    if (ids.length === 0) out.push({ field: `${at}azure.client_ids`, description: 'client_ids needs at least one component name → client id' });
    else if (ids.length > MAX_CLIENT_IDS) out.push({ field: `${at}azure.client_ids`, description: `at most ${MAX_CLIENT_IDS} client ids` });
    else
      for (const [k, v] of ids) {
        if (!COMPONENT.test(k) || !UUID.test(v)) {
          out.push({ field: `${at}azure.client_ids`, description: 'each entry maps a component name (letters, digits, ".", "_", "-") to a client id UUID' });
          break;
        }
      }
  }
  if (a.github) {
    const apps = Object.entries(a.github.appInstallations);
    if (apps.length > MAX_APPS) out.push({ field: `${at}github.app_installations`, description: `at most ${MAX_APPS} apps` });
    for (const [app, group] of apps.slice(0, MAX_APPS)) {
      const f = `${at}github.app_installations[${app}]`;
      if (BigInt(app) <= 0n) out.push({ field: f, description: 'app ids are positive' });
      if (group.installations.length === 0 || group.installations.length > MAX_INSTALLATIONS) {
        out.push({ field: `${f}.installations`, description: `between 1 and ${MAX_INSTALLATIONS} installations per app` });
      } else if (group.installations.some((i) => i.installationId <= 0n || i.name.length > MAX_GITHUB_NAME)) {
        out.push({ field: `${f}.installations`, description: `installation_id is required and positive; name at most ${MAX_GITHUB_NAME} characters` });
      }
    }
  }
}

/** Violations of an association's fields, named as in the request (`account_association.*`). */
export function associationViolations(a: Fields): FieldViolation[] {
  const at = 'account_association.';
  const out: FieldViolation[] = [];
  if (a.name === '') out.push({ field: `${at}name`, description: 'name is required' });
  else if (!NAME.test(a.name)) out.push({ field: `${at}name`, description: 'name must match "^[a-z0-9 ._-]{1,}$" and be at most 63 characters' });
  if (!DESCRIPTION.test(a.description)) {
    out.push({ field: `${at}description`, description: 'description must be at most 512 characters on one line' });
  }
  if (!a.amazon && !a.google && !a.azure && !a.github) {
    out.push({ field: at.slice(0, -1), description: 'at least one of amazon, google, azure or github is required' });
  }
  providerViolations(a, at, out);
  return out;
}
