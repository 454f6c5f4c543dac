// The bounds of one inventory run. Every one is checked while the layers
// stream by; reaching one never throws: what was not read becomes a
// SkippedEntry saying which bound, and the rest of the inventory stands.

export interface InventoryLimits {
  /** Decompressed bytes read from one layer; the rest of the layer is skipped. */
  maxLayerBytes: number;
  /** Decompressed bytes read over all layers of the image. */
  maxImageBytes: number;
  /** Decompressed ÷ compressed bytes of a layer (a tar bomb), checked once past `ratioFloorBytes`. */
  maxCompressionRatio: number;
  /** Decompressed bytes a layer may produce before the ratio is checked (small layers of zeros are fine). */
  ratioFloorBytes: number;
  /** Tar entries read from one layer. */
  maxLayerEntries: number;
  /** Bytes read from one package database (apk installed, dpkg status), parsed as it streams, never buffered whole. */
  maxDatabaseBytes: number;
  /** Bytes kept of one small metadata file: os-release, package.json, METADATA, a status.d file, pom.properties, MANIFEST.MF. */
  maxMetadataBytes: number;
  /** Size of a jar/war/ear buffered to read it as a zip (nested jars count against the same bound). */
  maxArchiveBytes: number;
  /** Entries read from one jar. */
  maxArchiveEntries: number;
  /** Size of an ELF file kept whole to read its section table (a cargo-auditable `.dep-v0` section). */
  maxBinaryBytes: number;
  /** Bytes of an ELF file searched for Go build info (the search streams, nothing is kept but the blob). */
  maxBinaryScanBytes: number;
  /** Packages in the inventory. */
  maxPackages: number;
  /** Characters of a path in a layer. */
  maxPathLength: number;
  /** Components of a path in a layer. */
  maxPathDepth: number;
  /** Symlinks followed to resolve one well-known path (etc/os-release → ../usr/lib/os-release). */
  maxSymlinkHops: number;
  /** Skipped entries recorded one by one; past this, one summary entry counts the rest. */
  maxSkipped: number;
  /** Wall-clock milliseconds for the whole image. */
  timeoutMs: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const DEFAULT_INVENTORY_LIMITS: Readonly<InventoryLimits> = Object.freeze({
  maxLayerBytes: 16 * GiB,
  maxImageBytes: 64 * GiB,
  maxCompressionRatio: 100,
  ratioFloorBytes: 256 * MiB,
  maxLayerEntries: 1_000_000,
  maxDatabaseBytes: 512 * MiB,
  maxMetadataBytes: 1 * MiB,
  maxArchiveBytes: 64 * MiB,
  maxArchiveEntries: 100_000,
  maxBinaryBytes: 64 * MiB,
  maxBinaryScanBytes: 512 * MiB,
  maxPackages: 200_000,
  maxPathLength: 4096,
  maxPathDepth: 256,
  maxSymlinkHops: 16,
  maxSkipped: 1000,
  timeoutMs: 15 * 60 * 1000,
});

export function resolveLimits(limits: Partial<InventoryLimits> = {}): InventoryLimits {
  const out = { ...DEFAULT_INVENTORY_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof InventoryLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`inventory limit ${key} must be a non-negative number`);
    out[key] = value;
  }
  return out;
}
