// Frees a byte buffer's memory as soon as its reader is done with it, instead
// of at the next garbage collection. A streamed body (a blob upload, a
// response) arrives as a fresh buffer per socket read: Node's HTTP parser
// copies each slice of body out of its own read buffer. V8 sees only a small
// JS object per buffer, so its collector runs rarely while they stream, and
// tens of MB of them wait for it. Detaching the ArrayBuffer (the standard
// `transfer(0)`) frees it at once, and the allocator hands the same, still
// cached, memory to the next read.

/**
 * Releases `chunk`'s memory when the chunk is the whole of its ArrayBuffer
 * (a Node pool slice or a view into a larger buffer is left alone). Only for
 * buffers the caller holds alone: afterwards the chunk is empty.
 */
export function releaseBuffer(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  if (!(buffer instanceof ArrayBuffer) || chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0); // es2024, in Node since 21
}
