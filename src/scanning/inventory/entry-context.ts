// What every entry reader is handed: the layer being read, the bounds, the
// image's files so far, and where to say what was skipped.
import type { ImageFiles } from './image-files.js';
import type { InventoryLimits } from './inventory-limits.js';
import type { SkipLog } from './skip-log.js';

export interface EntryContext {
  layer: string;
  limits: InventoryLimits;
  files: ImageFiles;
  skip: SkipLog;
}
