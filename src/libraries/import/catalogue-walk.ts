// The files of an operator's mirror that the import reads, found by walking
// the directory (symbolic links are not followed; at most MAX_FILES files):
// Maven metadata, index pages, JSON documents (PEP 691 pages or npm
// packuments) and distribution files.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogueFileError } from './import-problem.js';
import { isDistFileName } from './python-filenames.js';

export const MAX_FILES = 2_000_000;
const MAX_DEPTH = 64;

export interface MirrorFiles {
  mavenMetadata: string[];
  htmlPages: string[];
  json: string[];
  dists: string[];
}

export async function walkMirror(root: string): Promise<MirrorFiles> {
  const out: MirrorFiles = { mavenMetadata: [], htmlPages: [], json: [], dists: [] };
  let seen = 0;
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) throw new CatalogueFileError(dir, `directories nested deeper than ${MAX_DEPTH}`);
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        await visit(path, depth + 1);
        continue;
      }
      if (!e.isFile()) continue;
      if (++seen > MAX_FILES) throw new CatalogueFileError(root, `more than ${MAX_FILES} files`);
      const lower = e.name.toLowerCase();
      if (lower === 'maven-metadata.xml') out.mavenMetadata.push(path);
      else if (lower === 'index.html' || lower === 'index.htm') out.htmlPages.push(path);
      else if (lower.endsWith('.json')) out.json.push(path);
      else if (isDistFileName(e.name)) out.dists.push(path);
    }
  };
  await visit(root, 0);
  return out;
}
