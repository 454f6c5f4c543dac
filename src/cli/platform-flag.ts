// --platform os/arch[/variant], as docker and chainctl take it, and the
// choice of one image among those an index offers.

export interface Platform {
  os: string;
  architecture: string;
  variant: string;
}

const PART = /^[a-z0-9][a-z0-9._-]{0,31}$/;

export const DEFAULT_PLATFORM: Platform = { os: 'linux', architecture: 'amd64', variant: '' };

export function parsePlatform(text: string): Platform {
  const parts = text.split('/');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => PART.test(p))) {
    throw new Error(`--platform ${JSON.stringify(text.slice(0, 100))} is not os/arch[/variant], e.g. linux/arm64 or linux/arm/v7`);
  }
  return { os: parts[0], architecture: parts[1], variant: parts[2] ?? '' };
}

/**
 * The image of `wanted` (default linux/amd64) among `offered`. A variant left
 * out matches any variant when the architecture has one image. `single`: the
 * digest is an image, taken unless `wanted` was given and differs.
 */
export function pickPlatform<T extends Platform>(offered: readonly T[], wanted: Platform | undefined, single: boolean): T | undefined {
  if (single && wanted === undefined) return offered[0];
  const w = wanted ?? DEFAULT_PLATFORM;
  const same = offered.filter((p) => (p.os || 'linux') === w.os && p.architecture === w.architecture);
  if (w.variant !== '') return same.find((p) => p.variant === w.variant);
  return same.find((p) => p.variant === '') ?? (same.length === 1 ? same[0] : undefined);
}
