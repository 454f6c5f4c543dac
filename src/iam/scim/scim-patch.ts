// PATCH (RFC 7644 §3.5.2) applied to a resource's JSON: add, replace and
// remove, with or without a path. Paths are `attr`, `attr.sub`,
// `attr[filter]` and `attr[filter].sub`, optionally prefixed by the
// resource's schema URN or an extension's (`urn:…:enterprise:2.0:User:manager`);
// the bracket filter is parsed and evaluated by scim2-parse-filter. Operation
// names and attribute names are matched without case (Entra ID sends "Add").
// The result is validated by the resource's own rules afterwards (a PATCH
// ends as a PUT would). Written by hand: no maintained library applies SCIM
// PATCH to plain JSON.
import { filter as compileFilter, parse as parseFilter, type Filter } from 'scim2-parse-filter';
import { scimInvalidPath, scimInvalidSyntax, scimInvalidValue, scimNoTarget, scimTooMany } from './scim-errors.js';
import { checkJson, deleteAttr, getAttr, isObject, type Json, setAttr } from './scim-json.js';
import { PATCH_OP, SCIM_LIMITS } from './scim-schemas.js';

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

/** The Operations of a PatchOp body, checked. */
export function patchOperations(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw scimInvalidSyntax('the body must be a PatchOp object');
  checkJson(body);
  const schemas = getAttr(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP)) throw scimInvalidSyntax(`schemas must list ${PATCH_OP}`);
  const ops = getAttr(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0) throw scimInvalidSyntax('Operations must be a non-empty array');
  if (ops.length > SCIM_LIMITS.patchOperations) throw scimTooMany(`at most ${SCIM_LIMITS.patchOperations} operations per PATCH`);
  return ops.map((o) => {
    if (!isObject(o)) throw scimInvalidSyntax('each operation must be an object');
    const op = getAttr(o, 'op');
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'replace' && name !== 'remove') throw scimInvalidSyntax('op must be add, replace or remove');
    const path = getAttr(o, 'path');
    if (path !== undefined && path !== null && (typeof path !== 'string' || path.length > 1024)) throw scimInvalidPath('path must be a string');
    const value = getAttr(o, 'value');
    if (name !== 'remove' && value === undefined) throw scimInvalidValue(`${name} needs a value`);
    return { op: name, path: typeof path === 'string' && path !== '' ? path : undefined, value };
  });
}

interface ParsedPath {
  /** The extension URN the attribute lives under, if any. */
  urn?: string;
  attr: string;
  filter?: Filter;
  sub?: string;
}

const NAME = '[A-Za-z][\\w$-]*';
const PATH = new RegExp(`^(${NAME})(?:\\[(.+)\\])?(?:\\.(${NAME}))?$`);

function parsePath(path: string, coreUrn: string, extensionUrns: readonly string[]): ParsedPath {
  let rest = path;
  let urn: string | undefined;
  const lower = path.toLowerCase();
  if (lower.startsWith(`${coreUrn.toLowerCase()}:`)) rest = path.slice(coreUrn.length + 1);
  else {
    const ext = extensionUrns.find((u) => lower.startsWith(`${u.toLowerCase()}:`));
    if (ext) {
      urn = ext;
      rest = path.slice(ext.length + 1);
    }
  }
  const m = PATH.exec(rest);
  if (!m) throw scimInvalidPath(`unsupported path ${JSON.stringify(path)}`);
  let filter: Filter | undefined;
  if (m[2] !== undefined) {
    try {
      filter = parseFilter(m[2]);
    } catch {
      throw scimInvalidPath(`the filter of path ${JSON.stringify(path)} does not parse`);
    }
  }
  return { urn, attr: m[1], filter, sub: m[3] };
}

/** A string value of `value` (Entra ID sends "True"/"False" for booleans, so those compare as text too). */
function sameValue(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) return getAttr(a, 'value') !== undefined && getAttr(a, 'value') === getAttr(b, 'value');
  return JSON.stringify(a) === JSON.stringify(b);
}

function addValues(existing: unknown[], values: unknown[]): unknown[] {
  const out = [...existing];
  for (const v of values) if (!out.some((e) => sameValue(e, v))) out.push(v);
  return out;
}

/** Applies one operation on `attr` of `container`, without a filter. */
function applyPlain(container: Json, attr: string, op: PatchOperation): void {
  const current = getAttr(container, attr);
  if (op.op === 'remove') {
    if (Array.isArray(current) && Array.isArray(op.value)) {
      // Entra ID removes members as {path: "members", value: [{value: id}]}: only those go.
      const rest = current.filter((e) => !(op.value as unknown[]).some((v) => sameValue(e, v)));
      setAttr(container, attr, rest);
    } else deleteAttr(container, attr);
    return;
  }
  if (op.op === 'add' && Array.isArray(current)) {
    setAttr(container, attr, addValues(current, Array.isArray(op.value) ? op.value : [op.value]));
    return;
  }
  if (isObject(current) && isObject(op.value)) {
    setAttr(container, attr, { ...current, ...op.value });
    return;
  }
  setAttr(container, attr, op.value);
}

/** The target object of a path's attribute: the resource or the extension object under its URN. */
function containerOf(resource: Json, p: ParsedPath, create: boolean): Json | undefined {
  if (!p.urn) return resource;
  const ext = getAttr(resource, p.urn);
  if (isObject(ext)) return ext;
  if (!create) return undefined;
  const made: Json = {};
  setAttr(resource, p.urn, made);
  return made;
}

function applyFiltered(container: Json, p: ParsedPath, op: PatchOperation): void {
  const test = compileFilter(p.filter!);
  const current = getAttr(container, p.attr);
  const list = Array.isArray(current) ? current : [];
  const matches = list.filter((e) => isObject(e) && test(e));
  if (matches.length === 0) {
    if (op.op === 'remove') return;
    // Add (and, leniently, replace) of `emails[type eq "work"].value` with no such element creates it.
    const f = p.filter!;
    if (f.op !== 'eq' || typeof f.compValue !== 'string' || f.attrPath.includes('.')) throw scimNoTarget(`no value matches the filter of ${p.attr}`);
    const created: Json = { [f.attrPath]: f.compValue };
    if (p.sub) created[p.sub] = op.value;
    else if (isObject(op.value)) Object.assign(created, op.value);
    else throw scimInvalidValue(`the value for ${p.attr}[…] must be an object`);
    setAttr(container, p.attr, [...list, created]);
    return;
  }
  if (op.op === 'remove' && !p.sub) {
    setAttr(
      container,
      p.attr,
      list.filter((e) => !matches.includes(e)),
    );
    return;
  }
  for (const m of matches as Json[]) {
    if (p.sub) applyPlain(m, p.sub, op);
    else if (isObject(op.value)) Object.assign(m, op.value);
    else throw scimInvalidValue(`the value for ${p.attr}[…] must be an object`);
  }
}

/** Applies `ops` to a copy of `resource`; the copy. */
export function applyPatch(resource: Json, ops: readonly PatchOperation[], coreUrn: string, extensionUrns: readonly string[] = []): Json {
  const out = structuredClone(resource);
  for (const op of ops) {
    if (op.path === undefined) {
      if (op.op === 'remove') throw scimNoTarget('remove needs a path');
      if (!isObject(op.value)) throw scimInvalidValue(`${op.op} without a path needs an object value`);
      // Each key is a path of its own (Entra ID sends {"name.givenName": "…"} this way).
      for (const [k, v] of Object.entries(op.value)) applyOne(out, { op: op.op, path: k, value: v }, coreUrn, extensionUrns);
    } else applyOne(out, op, coreUrn, extensionUrns);
  }
  return out;
}

function applyOne(out: Json, op: PatchOperation, coreUrn: string, extensionUrns: readonly string[]): void {
  const isExtension = extensionUrns.find((u) => u.toLowerCase() === op.path!.toLowerCase());
  if (isExtension) {
    // {"urn:…:enterprise:2.0:User": {...}}: the extension's attributes, each a path.
    if (!isObject(op.value)) throw scimInvalidValue(`the value for ${isExtension} must be an object`);
    for (const [k, v] of Object.entries(op.value)) applyOne(out, { op: op.op, path: `${isExtension}:${k}`, value: v }, coreUrn, extensionUrns);
    return;
  }
  const p = parsePath(op.path!, coreUrn, extensionUrns);
  const container = containerOf(out, p, op.op !== 'remove');
  if (!container) return;
  if (p.filter) applyFiltered(container, p, op);
  else if (p.sub) {
    let parent = getAttr(container, p.attr);
    if (!isObject(parent)) {
      if (op.op === 'remove') return;
      parent = {};
      setAttr(container, p.attr, parent);
    }
    applyPlain(parent as Json, p.sub, op);
  } else applyPlain(container, p.attr, op);
}
