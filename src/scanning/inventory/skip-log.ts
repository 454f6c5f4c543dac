// The skipped entries of one run, bounded: a hostile layer of a million
// traversal paths yields `max` entries and one that counts the rest.
import type { SkippedEntry } from './inventory.js';

export class SkipLog {
  readonly entries: SkippedEntry[] = [];
  private dropped = 0;

  constructor(private readonly max: number) {}

  add(path: string, reason: string, layer?: string): void {
    if (this.entries.length >= this.max) {
      this.dropped++;
      return;
    }
    this.entries.push(layer === undefined ? { path, reason } : { layer, path, reason });
  }

  /** The entries, with the summary of those past the bound. */
  result(): SkippedEntry[] {
    if (this.dropped === 0) return this.entries;
    return [...this.entries, { path: '', reason: `${this.dropped} more skipped entries not listed (limit ${this.max})` }];
  }
}
