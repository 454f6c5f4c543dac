// The image's files as the layers stack them, holding only what the
// inventory needs per path (a parsed database, the packages a jar or binary
// declares, a symlink's target). Each layer's changes are gathered apart and
// applied when it ends, as the OCI image layer specification orders them:
// whiteouts (`.wh.<name>`, `.wh..wh..opq`) and entries that replace a path
// hide what lower layers had there, never what their own layer adds.
import type { ImageOs, InstalledPackage } from './inventory.js';
import type { OsPackageRecord } from './os-package-record.js';
import { parentOf } from './layer-paths.js';

export type Finding =
  | { kind: 'os-release'; os: ImageOs | undefined }
  | { kind: 'os-db'; format: 'apk' | 'dpkg'; records: OsPackageRecord[] }
  | { kind: 'packages'; packages: InstalledPackage[] }
  | { kind: 'link'; target: string };

export class ImageFiles {
  private readonly files = new Map<string, Finding>();
  private added = new Map<string, Finding>();
  /** Lower paths hidden by this layer: each hides its subtree. */
  private hidden = new Set<string>();
  /** Directories made opaque by this layer: their lower contents are hidden, not the directory. */
  private opaque = new Set<string>();
  private lowerDirs = new Set<string>();

  startLayer(): void {
    this.added = new Map();
    this.hidden = new Set();
    this.opaque = new Set();
    this.lowerDirs = new Set();
    for (const path of this.files.keys()) {
      for (let dir = parentOf(path); dir !== '' && !this.lowerDirs.has(dir); dir = parentOf(dir)) this.lowerDirs.add(dir);
    }
  }

  whiteout(target: string): void {
    this.hidden.add(target);
  }

  makeOpaque(dir: string): void {
    this.opaque.add(dir);
  }

  /** A non-directory entry at `path` in this layer: it replaces the lower file, or a lower directory and its contents. */
  replace(path: string): void {
    if (this.files.has(path) || this.lowerDirs.has(path)) this.hidden.add(path);
    this.added.delete(path);
  }

  put(path: string, finding: Finding): void {
    this.added.set(path, finding);
  }

  /** What the image holds at `path` as seen from inside the layer being read (its own entries first). */
  get(path: string): Finding | undefined {
    return this.added.get(path) ?? (this.hiddenBelow(path) ? undefined : this.files.get(path));
  }

  endLayer(): void {
    if (this.hidden.size > 0 || this.opaque.size > 0) {
      for (const path of [...this.files.keys()]) if (this.hiddenBelow(path)) this.files.delete(path);
    }
    for (const [path, finding] of this.added) this.files.set(path, finding);
    this.added = new Map();
    this.hidden = new Set();
    this.opaque = new Set();
    this.lowerDirs = new Set();
  }

  /** Every path and what it holds, after the last layer. */
  entries(): IterableIterator<[string, Finding]> {
    return this.files.entries();
  }

  /** Whether this layer's whiteouts, opaque directories or replacements hide a lower `path`. */
  private hiddenBelow(path: string): boolean {
    if (this.hidden.has(path)) return true;
    for (let dir = parentOf(path); ; dir = parentOf(dir)) {
      if (this.hidden.has(dir) || this.opaque.has(dir)) return true;
      if (dir === '') return false;
    }
  }
}
