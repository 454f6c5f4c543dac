// Python core metadata (METADATA in a wheel, PKG-INFO in an sdist): the
// email-style header block, of which the catalogue keeps Name, Version and
// Summary.
export const MAX_DESCRIPTION = 1024;

export interface CoreMetadata {
  name: string;
  version: string;
  summary: string;
}

export function parseCoreMetadata(text: string): CoreMetadata {
  const out: CoreMetadata = { name: '', version: '', summary: '' };
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break; // the body (long description) follows the headers
    const colon = line.indexOf(':');
    if (colon <= 0 || line.startsWith(' ') || line.startsWith('\t')) continue;
    const field = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'name' && out.name === '') out.name = value.slice(0, 256);
    else if (field === 'version' && out.version === '') out.version = value.slice(0, 256);
    else if (field === 'summary' && out.summary === '') out.summary = value.slice(0, MAX_DESCRIPTION);
  }
  return out;
}
