// Reading one tar entry's bytes within a bound: what is past the bound is
// streamed by (the tar must be read on), never kept.

/** A tar entry's bytes (tar-stream's entry streams are async-iterable streamx streams). */
export type EntryStream = AsyncIterable<Buffer>;

/** The entry's bytes, or undefined when it holds more than `max` (then it is drained). */
export async function readBounded(entry: EntryStream, size: number, max: number): Promise<Buffer | undefined> {
  if (size > max) {
    await drain(entry);
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of entry) {
    total += chunk.length;
    if (total <= max) chunks.push(chunk);
  }
  return total <= max ? Buffer.concat(chunks) : undefined;
}

export async function drain(entry: EntryStream): Promise<void> {
  for await (const _ of entry) {
    // The bytes only pass: the next entry starts after them.
  }
}
