// os-release(5): `KEY=value` lines, values optionally in single or double
// quotes (backslash escapes `\" \\ \$ \``), `#` comments. `etc/os-release`
// wins over `usr/lib/os-release`, as the manual page says.
import type { ImageOs } from './inventory.js';

export const OS_RELEASE_PATHS = ['etc/os-release', 'usr/lib/os-release'] as const;

export function parseOsRelease(text: string): ImageOs | undefined {
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    values.set(line.slice(0, eq), unquote(line.slice(eq + 1)));
  }
  const id = values.get('ID');
  if (!id) return undefined;
  const os: ImageOs = { id: id.toLowerCase() };
  const versionId = values.get('VERSION_ID');
  if (versionId) os.versionId = versionId;
  const codename = values.get('VERSION_CODENAME');
  if (codename) os.versionCodename = codename;
  const idLike = values.get('ID_LIKE');
  if (idLike) os.idLike = idLike.split(/\s+/).filter((s) => s !== '');
  const pretty = values.get('PRETTY_NAME');
  if (pretty) os.prettyName = pretty;
  return os;
}

function unquote(value: string): string {
  const q = value[0];
  if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) {
    const inner = value.slice(1, -1);
    return q === '"' ? inner.replace(/\\([\\"$`])/g, '$1') : inner;
  }
  return value;
}
