// An inventory as an SPDX 2.3 JSON document (https://spdx.github.io/spdx-spec/v2.3/).
// Written by hand: no maintained JavaScript library writes SPDX 2.3 (the
// CycloneDX library Berth uses writes only CycloneDX). The document describes
// one package for the image (or index) and contains each inventoried package,
// with its purl as a PACKAGE-MANAGER external reference.
import { createHash } from 'node:crypto';
import type { InstalledPackage } from '../inventory/inventory.js';
import type { ImageInventory } from './image-inventory.js';

export const SPDX_MEDIA_TYPE = 'application/spdx+json';

/** An SPDX identifier: letters, digits, '.' and '-' only (SPDX 2.3 §3.2). */
function spdxId(prefix: string, text: string): string {
  return `SPDXRef-${prefix}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

/** A license expression as SPDX takes it, or NOASSERTION when none or not one SPDX can parse. */
function licenseOf(p: InstalledPackage): string {
  const list = (p.licenses ?? []).filter((l) => /^[A-Za-z0-9.+\-() ]+$/.test(l) && l.trim() !== '');
  if (list.length === 0) return 'NOASSERTION';
  return list.length === 1 ? list[0] : list.map((l) => (l.includes(' ') ? `(${l})` : l)).join(' AND ');
}

/** How many skipped entries the document names; the rest are counted. */
export const MAX_SKIPPED_NAMED = 100;

/** What the inventory did not read, for the document's creation comment (the issue asks the report to say it). */
function skippedComment(inv: ImageInventory): string | undefined {
  if (inv.skipped.length === 0) return undefined;
  const named = inv.skipped.slice(0, MAX_SKIPPED_NAMED).map((e) => `${e.path || '(layer)'}${e.layer ? ` in layer ${e.layer.slice(0, 19)}` : ''}: ${e.reason}`);
  const more = inv.skipped.length - named.length;
  return `Berth did not inventory ${inv.skipped.length} ${inv.skipped.length === 1 ? 'entry' : 'entries'} of the image: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export interface SpdxOptions {
  /** What the image is called in the document: repo name and digest. */
  name: string;
  digest: string;
  /** The inventory's time: the document's creation time, so the same inventory gives the same document. */
  created: string;
}

export function spdxDocument(inv: ImageInventory, opts: SpdxOptions): Record<string, unknown> {
  const root = 'SPDXRef-Image';
  const packages: Record<string, unknown>[] = [
    {
      SPDXID: root,
      name: opts.name,
      versionInfo: opts.digest,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: 'CONTAINER',
      ...(inv.os ? { comment: `operating system: ${inv.os.prettyName ?? [inv.os.id, inv.os.versionId].filter(Boolean).join(' ')}` } : {}),
    },
  ];
  const relationships: Record<string, unknown>[] = [{ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: root }];
  const ids = new Set<string>();
  for (const p of inv.packages) {
    let id = spdxId('Package', `${p.purl}|${p.type}|${p.name}|${p.version}`);
    for (let n = 2; ids.has(id); n++) id = `${id}-${n}`;
    ids.add(id);
    packages.push({
      SPDXID: id,
      name: p.name,
      versionInfo: p.version,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: licenseOf(p),
      copyrightText: 'NOASSERTION',
      ...(p.source ? { sourceInfo: `built from source package ${p.source.name}${p.source.version ? ` ${p.source.version}` : ''}` } : {}),
      ...(p.purl ? { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: p.purl }] } : {}),
    });
    relationships.push({ spdxElementId: root, relationshipType: 'CONTAINS', relatedSpdxElement: id });
  }
  const skipped = skippedComment(inv);
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `${opts.name}@${opts.digest}`,
    // Unique per image and inventory (SPDX 2.3 §6.5 asks for a unique absolute URI, not one that resolves).
    documentNamespace: `urn:berth:spdx:${opts.digest}:${createHash('sha256').update(opts.created).digest('hex').slice(0, 16)}`,
    creationInfo: {
      created: opts.created.replace(/\.\d+Z$/, 'Z'),
      creators: ['Tool: berth'],
      ...(skipped === undefined ? {} : { comment: skipped }),
    },
    packages,
    relationships,
  };
}
