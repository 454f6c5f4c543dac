// One layer, read once as a stream: each tar entry's path is normalized
// (refused when it escapes the root, holds NUL, or is too long or deep),
// whiteouts and replacements are handed to ImageFiles, and regular files go
// to entry-reader.ts. A bound or a corrupt stream ends the layer with a
// SkippedEntry; what was read before it counts. An error of the blob read
// itself (open(), the raw stream) is not the image's fault and rejects.
import { pipeline } from 'node:stream/promises';
import tar, { type Header } from 'tar-stream';
import { APK_DATABASE_PATHS } from './apk-database.js';
import { DPKG_STATUS_PATH } from './dpkg-status.js';
import { drain, type EntryStream } from './entry-bytes.js';
import type { EntryContext } from './entry-context.js';
import { readEntry } from './entry-reader.js';
import type { Finding, ImageFiles } from './image-files.js';
import type { LayerSource } from './layer-source.js';
import type { InventoryLimits } from './inventory-limits.js';
import { normalizeEntryPath, whiteoutOf } from './layer-paths.js';
import { compressionOf, type ImageBudget, LayerBound, tarStream } from './layer-stream.js';
import { OS_RELEASE_PATHS } from './os-release.js';
import type { SkipLog } from './skip-log.js';

/** Paths whose symlinks are recorded, to be resolved after the last layer (etc/os-release → ../usr/lib/os-release). */
export const LINKED_PATHS: ReadonlySet<string> = new Set([...OS_RELEASE_PATHS, ...APK_DATABASE_PATHS, DPKG_STATUS_PATH]);

export async function readLayer(layer: LayerSource, limits: InventoryLimits, files: ImageFiles, skip: SkipLog, budget: ImageBudget): Promise<void> {
  const compression = compressionOf(layer.mediaType);
  if (!compression) {
    skip.add('', `layer media type ${layer.mediaType.slice(0, 200)} is not a tar layer`, layer.digest);
    return;
  }
  const raw = await layer.open();
  const extract = tar.extract();
  const chain = [...tarStream(raw, compression, limits, budget), extract as unknown as NodeJS.WritableStream];
  // Whose error came first says whose fault it is: the blob store's (raw) or the content's. Once one
  // stream fails the pipeline destroys the others with that error, and once the reader stops on its
  // own (a bound) the blob stream is closed early: neither is the blob store's error.
  let first: { blob: boolean; err: unknown } | undefined;
  let stopping = false;
  for (const stream of chain) {
    (stream as NodeJS.EventEmitter).on('error', (err: unknown) => {
      if (!first && !stopping) first = { blob: stream === raw, err };
    });
  }
  const done = pipeline(chain).then(
    () => undefined,
    (err: unknown) => err,
  );
  const ctx: EntryContext = { layer: layer.digest, limits, files, skip };
  let failure: unknown;
  let count = 0;
  files.startLayer();
  try {
    for await (const entry of extract) {
      try {
        if (++count > limits.maxLayerEntries) throw new LayerBound(`layer with more than ${limits.maxLayerEntries} entries; the rest were not read`);
        if (Date.now() >= budget.deadline) throw new LayerBound(`time limit of ${limits.timeoutMs} ms reached; the rest was not read`);
        await readTarEntry(ctx, entry.header, entry as EntryStream);
      } catch (err) {
        stopping = true;
        throw err;
      }
    }
  } catch (err) {
    failure = err;
  }
  const streamError = await done;
  files.endLayer();
  if (first?.blob) throw first.err;
  const cause = [failure, first?.err, streamError].find((e) => e instanceof LayerBound) ?? failure ?? first?.err ?? streamError;
  if (cause === undefined) return;
  skip.add('', cause instanceof LayerBound ? cause.message : `unreadable layer: ${cause instanceof Error ? cause.message : String(cause)}`, layer.digest);
}

async function readTarEntry(ctx: EntryContext, header: Header, entry: EntryStream): Promise<void> {
  const { limits, files, skip, layer } = ctx;
  const norm = normalizeEntryPath(header.name, limits.maxPathLength, limits.maxPathDepth);
  if (!norm.ok) {
    skip.add(printable(header.name, limits.maxPathLength), norm.reason, layer);
    return drain(entry);
  }
  const path = norm.path;
  const whiteout = whiteoutOf(path);
  if (path === '' || header.type === 'directory' || whiteout.kind !== 'none') {
    if (whiteout.kind === 'delete') files.whiteout(whiteout.target);
    else if (whiteout.kind === 'opaque') files.makeOpaque(whiteout.dir);
    return drain(entry);
  }
  files.replace(path);
  if (header.type === 'symlink') {
    if (LINKED_PATHS.has(path) && header.linkname) files.put(path, { kind: 'link', target: header.linkname });
    return drain(entry);
  }
  if (header.type === 'link') {
    // A hard link holds the same file as its target: what was read there stands here too.
    const target = header.linkname ? normalizeEntryPath(header.linkname, limits.maxPathLength, limits.maxPathDepth) : undefined;
    const found = target?.ok ? files.get(target.path) : undefined;
    if (found && target?.ok) files.put(path, relocated(found, target.path, path));
    return drain(entry);
  }
  if (header.type === 'file' || header.type === 'contiguous-file') return readEntry(ctx, header, path, entry);
  return drain(entry);
}

/** A finding read at `from`, as found at `to`: packages carry their location (a jar's nested ones after `!`). */
function relocated(found: Finding, from: string, to: string): Finding {
  if (found.kind !== 'packages') return found;
  const move = (loc: string) => (loc === from || loc.startsWith(`${from}!`) ? to + loc.slice(from.length) : loc);
  return { kind: 'packages', packages: found.packages.map((p) => ({ ...p, locations: p.locations.map(move) })) };
}

function printable(name: string, max: number): string {
  return name.replaceAll('\u0000', '\\0').slice(0, max);
}
