// Writing a chunk to a stream and waiting for it to be handed on, as the
// blob drivers' appends do before they reuse or release the buffer.
import type { Writable } from 'node:stream';

/** Resolves once `sink` has handed `chunk` on (its write callback), after which the buffer may be reused. */
export function written(sink: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    sink.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}
