// The platforms of config blobs read at manifest pushes, remembered by digest.
// A config is content-addressed, so what it says never changes: the many
// manifests that name one config (an image tagged again and again, rebuilt
// layers over one config) read it once, not once per push — on S3 a GET per
// push. Bounded: past MAX_CONFIGS the least recently read goes first.
import { buffer } from 'node:stream/consumers';
import { setRecent } from '../core/recent-map.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import { configPlatform } from '../registry/content/config-platform.js';
import type { Platform } from '../registry/content/descriptor.js';
import type { Digest } from '../registry/content/digest.js';

const MAX_CONFIGS = 4096;

export class ConfigPlatforms {
  /** null: the config was read and names no platform. */
  private readonly known = new Map<string, Platform | null>();

  constructor(private readonly blobs: BlobStore) {}

  /** The platform the stored config `digest` declares; undefined when it names none or is not stored. */
  async of(digest: Digest): Promise<Platform | undefined> {
    const held = this.known.get(digest.text);
    if (held !== undefined) return held ?? undefined;
    const body = await this.blobs.read(digest);
    if (!body) return undefined;
    const platform = configPlatform(await buffer(body));
    setRecent(this.known, digest.text, platform ?? null, MAX_CONFIGS);
    return platform;
  }
}
