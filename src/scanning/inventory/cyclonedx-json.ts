// CycloneDX JSON (https://cyclonedx.org/specification/overview/): the
// components, nested ones included (walked iteratively, bounded), each with
// its purl and licenses (`license.id`, `license.name` or `expression`); the
// OS from a component of type operating-system. Spec versions and component
// types come from @cyclonedx/cyclonedx-library; it serializes BOMs but does
// not read them, so the walk is here.
import { Enums, Spec } from '@cyclonedx/cyclonedx-library';
import type { SbomDocument } from './spdx-json.js';

const VERSIONS: ReadonlySet<string> = new Set(Object.values(Spec.Version));

export function readCycloneDxJson(doc: Record<string, unknown>, maxItems: number): SbomDocument | string {
  if (doc.bomFormat !== 'CycloneDX') return 'not a CycloneDX JSON document (bomFormat)';
  if (typeof doc.specVersion !== 'string' || !VERSIONS.has(doc.specVersion))
    return `CycloneDX spec version ${String(doc.specVersion).slice(0, 16)} is not known`;
  const out: SbomDocument = { items: [] };
  const pending: unknown[] = Array.isArray(doc.components) ? [...doc.components] : [];
  let seen = 0;
  while (pending.length > 0) {
    const c = pending.pop();
    if (typeof c !== 'object' || c === null) continue;
    if (++seen > maxItems) return `CycloneDX document with more than ${maxItems} components`;
    const comp = c as Record<string, unknown>;
    if (Array.isArray(comp.components)) pending.push(...comp.components);
    const version = typeof comp.version === 'string' ? comp.version : undefined;
    if (comp.type === Enums.ComponentType.OperatingSystem && typeof comp.name === 'string') {
      if (!out.os) out.os = version ? { id: comp.name.toLowerCase(), versionId: version } : { id: comp.name.toLowerCase() };
      continue;
    }
    out.items.push({ purl: typeof comp.purl === 'string' ? comp.purl : undefined, version, licenses: licensesOf(comp.licenses) });
  }
  return out;
}

function licensesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const choice of value.slice(0, 16)) {
    if (typeof choice !== 'object' || choice === null) continue;
    const { license, expression } = choice as { license?: { id?: unknown; name?: unknown }; expression?: unknown };
    const text =
      typeof expression === 'string' ? expression : typeof license?.id === 'string' ? license.id : typeof license?.name === 'string' ? license.name : undefined;
    if (text) out.push(text);
  }
  return out;
}
