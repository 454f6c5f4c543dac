// Tar entry names → the image path they stand for, relative to the root and
// without `.`/`..`/empty components, or the reason the name is refused. The
// reader never writes to disk; a path only keys what was read from it.

export type EntryPath = { ok: true; path: string } | { ok: false; reason: string };

export function normalizeEntryPath(name: string, maxLength: number, maxDepth: number): EntryPath {
  if (name.includes('\u0000')) return { ok: false, reason: 'NUL character in the path' };
  if (name.length > maxLength) return { ok: false, reason: `path longer than ${maxLength} characters` };
  const parts: string[] = [];
  for (const part of name.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return { ok: false, reason: 'path escapes the image root (..)' };
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (parts.length > maxDepth) return { ok: false, reason: `path deeper than ${maxDepth} components` };
  return { ok: true, path: parts.join('/') };
}

/** `a/b` → `a`; a top-level name → ``. */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** What a whiteout file of the OCI image layer specification says, if the path is one. */
export type Whiteout = { kind: 'delete'; target: string } | { kind: 'opaque'; dir: string } | { kind: 'none' };

export function whiteoutOf(path: string): Whiteout {
  const name = baseName(path);
  if (!name.startsWith('.wh.')) return { kind: 'none' };
  const dir = parentOf(path);
  if (name === '.wh..wh..opq') return { kind: 'opaque', dir };
  // Other `.wh..wh.` names are aufs bookkeeping (hard-link directories), not deletions.
  if (name.startsWith('.wh..wh.')) return { kind: 'none' };
  const target = name.slice(4);
  return { kind: 'delete', target: dir === '' ? target : `${dir}/${target}` };
}

/** Resolves a symlink's target against the link's directory, inside the root (absolute targets are root-relative). */
export function resolveLinkTarget(linkPath: string, target: string): string | undefined {
  const base = target.startsWith('/') ? '' : parentOf(linkPath);
  const joined = base === '' ? target : `${base}/${target}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    // `..` at the root stays at the root, as the kernel resolves it inside a chroot.
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}
