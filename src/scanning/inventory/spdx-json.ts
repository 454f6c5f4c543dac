// SPDX 2.x JSON (https://spdx.github.io/spdx-spec/v2.3/): packages whose
// external references include a `purl` (category PACKAGE-MANAGER, or
// PACKAGE_MANAGER as 2.2 spelled it), their concluded or declared license;
// the OS from a package whose primaryPackagePurpose is OPERATING-SYSTEM.
import type { ImageOs } from './inventory.js';

export interface SbomItem {
  purl?: string;
  version?: string;
  licenses: string[];
}

export interface SbomDocument {
  os?: ImageOs;
  items: SbomItem[];
}

export function readSpdxJson(doc: Record<string, unknown>, maxItems: number): SbomDocument | string {
  if (typeof doc.spdxVersion !== 'string' || !doc.spdxVersion.startsWith('SPDX-2.')) return 'not an SPDX 2.x JSON document (spdxVersion)';
  const packages = Array.isArray(doc.packages) ? doc.packages : [];
  if (packages.length > maxItems) return `SPDX document with more than ${maxItems} packages`;
  const out: SbomDocument = { items: [] };
  for (const p of packages) {
    if (typeof p !== 'object' || p === null) continue;
    const pkg = p as Record<string, unknown>;
    const version = typeof pkg.versionInfo === 'string' ? pkg.versionInfo : undefined;
    if (pkg.primaryPackagePurpose === 'OPERATING-SYSTEM' && typeof pkg.name === 'string' && !out.os) {
      out.os = version ? { id: pkg.name.toLowerCase(), versionId: version } : { id: pkg.name.toLowerCase() };
      continue;
    }
    const refs = Array.isArray(pkg.externalRefs) ? pkg.externalRefs : [];
    const ref = refs.find(
      (r): r is { referenceLocator: string } =>
        typeof r === 'object' &&
        r !== null &&
        (r as Record<string, unknown>).referenceType === 'purl' &&
        typeof (r as Record<string, unknown>).referenceLocator === 'string',
    );
    const licenses = [pkg.licenseConcluded, pkg.licenseDeclared].filter((l): l is string => typeof l === 'string' && l !== 'NOASSERTION' && l !== 'NONE');
    out.items.push({ purl: ref?.referenceLocator, version, licenses: licenses.slice(0, 1) });
  }
  return out;
}
