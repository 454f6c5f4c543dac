import type { Readable } from 'node:stream';

/** One layer blob of the image, as the scan worker hands it to inventoryLayers. */
export interface LayerSource {
  digest: string;
  mediaType: string;
  /** The blob's (compressed) size, as the manifest gives it. */
  size: number;
  /** The blob's raw bytes: gzip, zstd or plain tar as mediaType says. */
  open(): Promise<Readable>;
}
