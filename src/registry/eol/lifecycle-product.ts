// One product's lifecycle data as every endoflife.date format parses to it
// (the parsers are in src/cli/eol-release-files.ts), and the bounds the
// parsers and the writer share.

export interface LifecycleRelease {
  /** The stream: v1 release name, v0 cycle. */
  name: string;
  /** YYYY-MM-DD or ''. */
  releaseDate: string;
  /** YYYY-MM-DD or ''. */
  eolDate: string;
  /** Upstream says EOL (true with an unknown date is possible). */
  eol: boolean;
  lts: boolean;
  /** YYYY-MM-DD or ''. */
  ltsFrom: string;
  latestVersion: string;
}

export interface LifecycleProduct {
  name: string;
  aliases: string[];
  /** Newest first, as endoflife.date lists them. */
  releases: LifecycleRelease[];
  /** "endoflife.date/v1/<name>" or "endoflife.date/v0/<name>". */
  sourceRef: string;
  /** sha256 (hex) of the file's bytes. */
  sourceSha: string;
}

/** Product, alias and release names: endoflife.date uses lower-case words, digits, ".", "-", "_" and "+". */
export const LIFECYCLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
/** The largest product endoflife.date publishes has a few hundred releases. */
export const MAX_RELEASES = 2000;
export const MAX_ALIASES = 64;
/** An image name (a repo path's last segment) in a mapping. */
export const IMAGE_NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
