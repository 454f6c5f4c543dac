// Language package metadata found by path: npm package.json, Python
// METADATA/PKG-INFO, Java archives. Each is read within its bound; what
// cannot be read becomes a SkippedEntry.
import { type EntryStream, readBounded } from './entry-bytes.js';
import type { EntryContext } from './entry-context.js';
import type { InstalledPackage } from './inventory.js';
import { isJavaArchive, javaPackages } from './java-archive.js';
import { isNpmPackageJson, npmPackage } from './npm-package.js';
import { isPythonMetadata, pythonPackage } from './python-metadata.js';

export type LanguageFile = 'npm' | 'python' | 'java';

export function languageFileKind(path: string): LanguageFile | undefined {
  if (isNpmPackageJson(path)) return 'npm';
  if (isPythonMetadata(path)) return 'python';
  if (isJavaArchive(path)) return 'java';
  return undefined;
}

export async function readLanguageFile(ctx: EntryContext, kind: LanguageFile, path: string, size: number, entry: EntryStream): Promise<InstalledPackage[]> {
  const max = kind === 'java' ? ctx.limits.maxArchiveBytes : ctx.limits.maxMetadataBytes;
  const bytes = await readBounded(entry, size, max);
  if (!bytes) {
    ctx.skip.add(path, `${kind === 'java' ? 'Java archive' : 'metadata file'} larger than ${max} bytes`, ctx.layer);
    return [];
  }
  if (kind === 'java') return javaPackages(bytes, path, ctx);
  const pkg = kind === 'npm' ? npmPackage(bytes, path) : pythonPackage(bytes, path);
  if (typeof pkg !== 'string') return [pkg];
  ctx.skip.add(path, pkg, ctx.layer);
  return [];
}
