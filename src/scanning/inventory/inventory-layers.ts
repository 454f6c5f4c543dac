// The inventory reader: an image's layers (manifest order, bottom first) →
// its OS and installed packages. Each layer is read once, as a stream; only
// what the inventory needs is kept per path (parsed databases, the packages
// of a jar or binary), whiteouts are applied in layer order, and packages are
// resolved after the last layer. Every bound of InventoryLimits turns what it
// cut into a SkippedEntry; hostile content never throws. See
// docs/vulnerabilities.md, "What is inventoried".
import { ImageFiles } from './image-files.js';
import type { Inventory } from './inventory.js';
import { type InventoryLimits, resolveLimits } from './inventory-limits.js';
import { inventoryResult } from './inventory-result.js';
import { readLayer } from './layer-reader.js';
import type { ImageBudget } from './layer-stream.js';
import type { LayerSource } from './layer-source.js';
import { SkipLog } from './skip-log.js';

export type { InventoryLimits } from './inventory-limits.js';
export type { LayerSource } from './layer-source.js';
export { DEFAULT_INVENTORY_LIMITS } from './inventory-limits.js';

export async function inventoryLayers(layers: LayerSource[], limits?: Partial<InventoryLimits>): Promise<Inventory> {
  const l = resolveLimits(limits);
  const skip = new SkipLog(l.maxSkipped);
  const files = new ImageFiles();
  const budget: ImageBudget = { bytes: 0, deadline: Date.now() + l.timeoutMs };
  for (const layer of layers) {
    if (Date.now() >= budget.deadline) skip.add('', `not read: the time limit of ${l.timeoutMs} ms was reached`, layer.digest);
    else if (budget.bytes >= l.maxImageBytes) skip.add('', `not read: the image's ${l.maxImageBytes} decompressed bytes were reached`, layer.digest);
    else await readLayer(layer, l, files, skip, budget);
  }
  return inventoryResult(files, l, skip);
}
