// Regular files found by their first bytes: an ELF file is searched for Go
// build info as it streams by (go-buildinfo.ts), and, when no larger than
// InventoryLimits.maxBinaryBytes, kept whole for its section table (a
// cargo-auditable `.dep-v0`, rust-audit.ts). Anything else streams past.
import { ELF_MAGIC, elfSection, isElf } from './elf-sections.js';
import type { EntryStream } from './entry-bytes.js';
import type { EntryContext } from './entry-context.js';
import { decodeGoBuildInfo, GoBuildInfoScanner, goPackages } from './go-buildinfo.js';
import type { InstalledPackage } from './inventory.js';
import { RUST_AUDIT_SECTION, rustPackages } from './rust-audit.js';

/** Smaller files are not programs worth reading. */
const MIN_ELF = 64;

export async function readBinaryFile(ctx: EntryContext, path: string, size: number, entry: EntryStream): Promise<InstalledPackage[]> {
  const it = entry[Symbol.asyncIterator]();
  // The entry's first chunk may be a few bytes (where a decompressed chunk ended): gather enough to see the magic.
  const head: Buffer[] = [];
  let headBytes = 0;
  let step = await it.next();
  while (!step.done && headBytes < ELF_MAGIC.length) {
    head.push(step.value);
    headBytes += step.value.length;
    if (headBytes < ELF_MAGIC.length) step = await it.next();
  }
  if (size < MIN_ELF || !isElf(Buffer.concat(head))) {
    while (!step.done) step = await it.next();
    return [];
  }
  const keep = size <= ctx.limits.maxBinaryBytes;
  const chunks: Buffer[] = [];
  const go = new GoBuildInfoScanner(ctx.limits.maxBinaryScanBytes);
  for (const chunk of head.slice(0, -1)) {
    go.push(chunk);
    if (keep) chunks.push(chunk);
  }
  while (!step.done) {
    go.push(step.value);
    if (keep) chunks.push(step.value);
    step = await it.next();
  }
  const out: InstalledPackage[] = [];
  const blob = go.blob();
  if (blob) {
    const info = decodeGoBuildInfo(blob);
    if (typeof info === 'string') ctx.skip.add(path, info, ctx.layer);
    else out.push(...goPackages(info, path));
  }
  if (!keep) {
    if (!blob) ctx.skip.add(path, `ELF file larger than ${ctx.limits.maxBinaryBytes} bytes: its sections were not read (cargo-auditable)`, ctx.layer);
    return out;
  }
  const section = elfSection(Buffer.concat(chunks), RUST_AUDIT_SECTION);
  if (typeof section === 'string') ctx.skip.add(path, section, ctx.layer);
  else if (section) {
    const crates = rustPackages(section, path);
    if (typeof crates === 'string') ctx.skip.add(path, crates, ctx.layer);
    else out.push(...crates);
  }
  return out;
}
