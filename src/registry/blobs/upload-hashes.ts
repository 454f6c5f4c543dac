// The sha256 state of uploads in progress, so a commit need not read the
// file back. A state is used only when it covers exactly the bytes on disk
// (its offset equals the file size); anything else (a restart, another
// process, an evicted entry) makes the commit re-hash the file. The map is
// bounded: past MAX_STATES the least recently used state is dropped.
import type { Hash } from 'node:crypto';
import { setRecent } from '../../core/recent-map.js';

const MAX_STATES = 4096;

export class UploadHashes {
  private readonly states = new Map<string, { hash: Hash; offset: number }>();

  /** The hash of the first `size` bytes of the upload, if held. */
  get(id: string, size: number): Hash | undefined {
    const state = this.states.get(id);
    if (state === undefined) return undefined;
    if (state.offset !== size) {
      this.states.delete(id);
      return undefined;
    }
    return state.hash;
  }

  set(id: string, hash: Hash, offset: number): void {
    setRecent(this.states, id, { hash, offset }, MAX_STATES);
  }

  delete(id: string): void {
    this.states.delete(id);
  }
}
