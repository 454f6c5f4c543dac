// PATCH for identity providers. It follows every resource's rule (a mask
// names the fields to change, "*" all of them, none: the fields sent) with two
// additions the write-only client secret needs:
// - `oidc.<field>` paths change one field of the OIDC configuration, leaving
//   the others as stored;
// - a client secret left empty keeps the stored one (a client cannot read it
//   back to send it again), whether the OIDC configuration is replaced through
//   `oidc` or `*`. Only the path `oidc.client_secret`, named in the mask,
//   clears it.
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import type { FieldMask } from '@bufbuild/protobuf/wkt';
import { isOutputOnly } from '../../core/field-mask.js';
import { badUpdateMask } from '../../core/request-errors.js';
import { type IdentityProvider, IdentityProvider_OIDCSchema, IdentityProviderSchema } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { IAM_DOMAIN } from '../errors.js';
import type { ProviderSettings } from './provider-rules.js';

type Top = 'name' | 'description' | 'default_role' | 'oidc';
type OidcField = 'issuer' | 'client_id' | 'client_secret' | 'additional_scopes' | 'groups_claim' | 'pkce_enabled';

export interface ProviderChanges {
  top: Set<Top>;
  oidc: Set<OidcField>;
}

/** What happens to the stored client secret. */
export type SecretChange = { keep: true } | { keep: false; secret: string };

const find = (schema: DescMessage, path: string): DescField | undefined => schema.fields.find((f) => f.name === path || f.jsonName === path);
const writable = (schema: DescMessage) => schema.fields.filter((f) => !isOutputOnly(f));

export function providerChanges(incoming: IdentityProvider, mask: FieldMask | undefined): ProviderChanges {
  const out: ProviderChanges = { top: new Set(), oidc: new Set() };
  if (!mask || mask.paths.length === 0) {
    if (incoming.name !== '') out.top.add('name');
    if (incoming.description !== '') out.top.add('description');
    if (incoming.defaultRole !== '') out.top.add('default_role');
    if (incoming.configuration.case === 'oidc') out.top.add('oidc');
    return out;
  }
  if (mask.paths.includes('*')) {
    if (mask.paths.length > 1) throw badUpdateMask(IAM_DOMAIN, '"*" cannot be combined with other paths');
    for (const f of writable(IdentityProviderSchema)) out.top.add(f.name as Top);
    return out;
  }
  const bad: string[] = [];
  for (const path of mask.paths) {
    const dot = path.indexOf('.');
    if (dot < 0) {
      const f = find(IdentityProviderSchema, path);
      if (!f) bad.push(path);
      else if (!isOutputOnly(f)) out.top.add(f.name as Top);
      continue;
    }
    const sub = find(IdentityProvider_OIDCSchema, path.slice(dot + 1));
    if (path.slice(0, dot) === 'oidc' && sub) out.oidc.add(sub.name as OidcField);
    else bad.push(path);
  }
  if (bad.length > 0) {
    const names = [...writable(IdentityProviderSchema).map((f) => f.name), ...IdentityProvider_OIDCSchema.fields.map((f) => `oidc.${f.name}`)];
    throw badUpdateMask(IAM_DOMAIN, `unknown field path ${bad.map((b) => `"${b.slice(0, 64)}"`).join(', ')}; updatable: ${names.join(', ')}`);
  }
  return out;
}

/** The stored settings with the changes applied, and what becomes of the client secret. */
export function applyProviderChanges(
  stored: ProviderSettings,
  incoming: IdentityProvider,
  changes: ProviderChanges,
): { settings: ProviderSettings; secret: SecretChange } {
  const from = incoming.configuration.case === 'oidc' ? incoming.configuration.value : undefined;
  const s: ProviderSettings = { ...stored, oidc: stored.oidc ? { ...stored.oidc } : undefined };
  let secret: SecretChange = { keep: true };
  if (changes.top.has('name')) s.name = incoming.name;
  if (changes.top.has('description')) s.description = incoming.description;
  if (changes.top.has('default_role')) s.defaultRole = incoming.defaultRole;
  if (changes.top.has('oidc')) {
    s.oidc = from
      ? { issuer: from.issuer, clientId: from.clientId, additionalScopes: from.additionalScopes, groupsClaim: from.groupsClaim, pkceEnabled: from.pkceEnabled }
      : undefined;
    if (from && from.clientSecret !== '') secret = { keep: false, secret: from.clientSecret };
  }
  if (changes.oidc.size > 0) {
    const o = s.oidc ?? { issuer: '', clientId: '', additionalScopes: [], groupsClaim: '', pkceEnabled: false };
    if (changes.oidc.has('issuer')) o.issuer = from?.issuer ?? '';
    if (changes.oidc.has('client_id')) o.clientId = from?.clientId ?? '';
    if (changes.oidc.has('additional_scopes')) o.additionalScopes = from?.additionalScopes ?? [];
    if (changes.oidc.has('groups_claim')) o.groupsClaim = from?.groupsClaim ?? '';
    if (changes.oidc.has('pkce_enabled')) o.pkceEnabled = from?.pkceEnabled ?? false;
    if (changes.oidc.has('client_secret')) secret = { keep: false, secret: from?.clientSecret ?? '' };
    s.oidc = o;
  }
  return { settings: s, secret };
}
