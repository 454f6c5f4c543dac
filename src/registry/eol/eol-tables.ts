// Lifecycle data (migration 0025): endoflife.date products and their release
// streams, imported by `berth eol import`, and the operator's image→product
// mappings. Global reference data like the public advisory feed: no group owns
// it, the import is an operator action on the server's database, and what a
// caller sees of it is only through the tags it may list (ListEolTags).

export interface EolProductsTable {
  /** The endoflife.date product name (e.g. "nodejs"). */
  name: string;
  /** JSON array of the product's aliases (e.g. ["node"]). */
  aliases: string;
  /** "endoflife.date/v1/<product>" or "endoflife.date/v0/<product>". */
  source_ref: string;
  /** sha256 of the imported file's bytes: an unchanged file changes nothing. */
  source_sha: string;
  update_time: string;
}

export interface EolReleasesTable {
  product: string;
  /** The release stream: endoflife.date release name (v1) or cycle (v0). */
  name: string;
  /** Order in the file, 0 first: endoflife.date lists the newest release first. */
  position: number;
  /** YYYY-MM-DD or '' (upstream names none). */
  release_date: string;
  /** YYYY-MM-DD or '' (no date: not EOL, or EOL on an unknown day, see `eol`). */
  eol_date: string;
  /** 1 when upstream says the release is EOL (with or without a date). */
  eol: number;
  lts: number;
  /** YYYY-MM-DD or '': when LTS began (v1 ltsFrom, or a v0 lts date). */
  lts_from: string;
  latest_version: string;
}

/** Every name a repo's image name may match: the product's own name and its aliases. */
export interface EolProductNamesTable {
  name: string;
  product: string;
  /** 1 for the product's own name (wins over another product's alias). */
  own: number;
}

/** Explicit mappings: an image name (a repo's last path segment) → a product, set by `berth eol map`. */
export interface EolImageProductsTable {
  image: string;
  product: string;
}

declare module '../../store/database.js' {
  interface Database {
    eol_products: EolProductsTable;
    eol_releases: EolReleasesTable;
    eol_product_names: EolProductNamesTable;
    eol_image_products: EolImageProductsTable;
  }
}
