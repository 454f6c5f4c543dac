// The `scope` of a Docker token request, parsed strictly (distribution's
// docs/spec/auth/scope.md):
//   scope         := resourcescope [ ' ' resourcescope ]*
//   resourcescope := type [ '(' class ')' ] ':' name ':' action [ ',' action ]*
// The name may itself hold ':' (a host:port prefix), so the type ends at the
// first ':' and the actions start after the last. Sizes and counts are
// bounded; anything but printable ASCII (NUL, control characters) is refused. Only `repository`
// scopes can be granted anything; other types parse and get no actions.
import { repoNameViolation } from '../registry/names.js';
import { OciError } from './oci-errors.js';

export type RepoAction = 'pull' | 'push' | 'delete';
export const REPO_ACTIONS: readonly RepoAction[] = ['pull', 'push', 'delete'];

export interface ScopeRequest {
  type: string;
  /** The class in `repository(plugin)`, when given. */
  class?: string;
  name: string;
  /** Requested actions, deduplicated, in request order; `*` stays as asked. */
  actions: string[];
}

const MAX_SCOPES = 32;
const MAX_SCOPE_CHARS = 512;
const MAX_ACTIONS = 8;
const TYPE = /^([a-z0-9]{1,32})(?:\(([a-z0-9]{1,32})\))?$/;
const ACTION = /^(?:[a-z]{1,32}|\*)$/;
// Printable ASCII without space: what a repository or resource name can hold.
const NAME = /^[\x21-\x7e]{1,300}$/;

function invalid(description: string): OciError {
  return new OciError('REQUEST_INVALID', `invalid scope: ${description}`);
}

function parseOne(text: string): ScopeRequest {
  const shown = JSON.stringify(text.slice(0, 80));
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  if (first <= 0 || last === first) throw invalid(`${shown} is not type:name:actions`);
  const type = TYPE.exec(text.slice(0, first));
  if (!type) throw invalid(`${shown} has an invalid resource type`);
  const name = text.slice(first + 1, last);
  if (!NAME.test(name)) throw invalid(`${shown} has an invalid resource name`);
  const actions = text.slice(last + 1).split(',');
  if (actions.length > MAX_ACTIONS || actions.some((a) => !ACTION.test(a))) throw invalid(`${shown} has invalid actions`);
  if (type[1] === 'repository') {
    const bad = repoNameViolation(name, 'scope');
    if (bad) throw new OciError('NAME_INVALID', `invalid repository name in scope: ${bad.description}`, { name: name.slice(0, 300) });
  }
  return { type: type[1], ...(type[2] ? { class: type[2] } : {}), name, actions: [...new Set(actions)] };
}

/** Every `scope` parameter (each may hold several, space-separated), merged per resource. */
export function parseScopes(values: readonly string[]): ScopeRequest[] {
  const parts: string[] = [];
  for (const value of values) {
    if (value.length > MAX_SCOPE_CHARS * MAX_SCOPES) throw invalid('too long');
    if (/[^\x20-\x7e]/.test(value)) throw invalid('only printable ASCII is allowed (no NUL, newline or other control characters)');
    for (const p of value.split(' ')) if (p !== '') parts.push(p);
    if (parts.length > MAX_SCOPES) throw invalid(`at most ${MAX_SCOPES} scopes per request`);
  }
  const merged = new Map<string, ScopeRequest>();
  for (const p of parts) {
    if (p.length > MAX_SCOPE_CHARS) throw invalid(`a scope is longer than ${MAX_SCOPE_CHARS} characters`);
    const s = parseOne(p);
    const key = `${s.type}(${s.class ?? ''}):${s.name}`;
    const seen = merged.get(key);
    if (seen) seen.actions = [...new Set([...seen.actions, ...s.actions])];
    else merged.set(key, s);
  }
  return [...merged.values()];
}

/** The repository actions a request names (`*` means all three); unknown actions are dropped. */
export function requestedRepoActions(actions: readonly string[]): RepoAction[] {
  if (actions.includes('*')) return [...REPO_ACTIONS];
  return REPO_ACTIONS.filter((a) => actions.includes(a));
}
