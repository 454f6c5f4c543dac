// An inventoried package as the v1 API's Package2.
import { create } from '@bufbuild/protobuf';
import { type Package2, Package2Schema } from '../../gen/berth/tenant/v1/sbom_pb.js';
import type { InstalledPackage } from '../inventory/inventory.js';

export function package2(p: InstalledPackage): Package2 {
  const where = p.locations.length > 0 ? ` in ${p.locations.slice(0, 3).join(', ')}${p.locations.length > 3 ? ', …' : ''}` : '';
  return create(Package2Schema, {
    id: p.purl || `${p.type}/${p.name}@${p.version}`,
    name: p.name,
    version: p.version,
    license: (p.licenses ?? []).join(' AND '),
    description: `${p.type} package found by ${p.foundBy}${where}`,
    purl: p.purl,
  });
}
