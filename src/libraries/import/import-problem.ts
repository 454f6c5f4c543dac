// A file the import could not use: reported with its path and skipped; the
// rest of the input is still imported.
export class CatalogueFileError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Problem {
  path: string;
  message: string;
}

export function problemOf(path: string, err: unknown): Problem {
  if (err instanceof CatalogueFileError) return { path: err.path, message: err.message };
  const e = err as NodeJS.ErrnoException;
  return { path, message: e?.code ? `cannot read: ${e.code}` : err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300) };
}
