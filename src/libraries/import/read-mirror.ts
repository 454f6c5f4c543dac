// Reads an operator's mirror into catalogue artifacts: Maven artifacts from
// their metadata, Python projects from index pages (PEP 503 HTML, PEP 691
// JSON) and from distribution files no page linked to (grouped by PEP 503
// name), npm packages from packuments. A file that cannot be used is a
// problem (path and reason) and is skipped. The same artifact found twice
// (a project in the main and a cuNNN index) is merged, first version wins.
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import type { CatalogueArtifact } from '../catalogue-writer.js';
import { normalizePythonName } from '../ecosystems.js';
import { cudaOfDirectory } from '../version-variants.js';
import { MAX_PACKUMENT_BYTES, readBounded } from './bounded-read.js';
import { walkMirror } from './catalogue-walk.js';
import { type Problem, problemOf } from './import-problem.js';
import { maxVersionsOk } from './merge-artifacts.js';
import { readMavenArtifact } from './maven-layout.js';
import { isPackument, npmArtifact } from './npm-packument.js';
import { parseDistFileName } from './python-filenames.js';
import { readIndexPage } from './python-index.js';
import { type PythonFile, pythonArtifact } from './python-project.js';

export interface MirrorRead {
  root: string;
  artifacts: Map<string, CatalogueArtifact>;
  problems: Problem[];
  /** Files read (metadata, pages, documents, distributions). */
  files: number;
}

function cudaOf(root: string, path: string): string {
  for (const segment of relative(root, dirname(path)).split(sep)) {
    const c = cudaOfDirectory(segment);
    if (c !== '') return c;
  }
  return '';
}

function add(read: MirrorRead, a: CatalogueArtifact | undefined): void {
  if (!a) return;
  const had = read.artifacts.get(a.uid);
  if (!had) {
    read.artifacts.set(a.uid, a);
    return;
  }
  const known = new Set(had.versions.map((v) => v.version));
  for (const v of a.versions) if (!known.has(v.version)) had.versions.push(v);
  if (!maxVersionsOk(had)) read.problems.push({ path: a.uid, message: 'more versions than one artifact may hold; the rest skipped' });
}

export async function readMirror(dir: string, onFile?: (read: MirrorRead) => void): Promise<MirrorRead> {
  const root = await realpath(dir);
  const read: MirrorRead = { root, artifacts: new Map(), problems: [], files: 0 };
  const files = await walkMirror(root);
  const step = async (path: string, work: () => Promise<void>) => {
    read.files++;
    try {
      await work();
    } catch (err) {
      read.problems.push(problemOf(path, err));
    }
    onFile?.(read);
  };

  const mavenDirs: string[] = [];
  for (const path of files.mavenMetadata)
    await step(path, async () => {
      const a = await readMavenArtifact(path, root, read.problems);
      if (a) mavenDirs.push(dirname(path) + sep);
      add(read, a);
    });

  const consumed = new Set<string>();
  const page = async (path: string) => {
    const p = await readIndexPage(path, root, cudaOf(root, path));
    if (!p) return;
    for (const c of p.consumed) consumed.add(c);
    add(read, await pythonArtifact(p.name, p.files, read.problems));
  };
  for (const path of files.htmlPages) await step(path, () => page(path));
  for (const path of files.json)
    await step(path, async () => {
      const bytes = await readBounded(path, MAX_PACKUMENT_BYTES);
      let doc: unknown;
      try {
        doc = JSON.parse(bytes.toString('utf8'));
      } catch {
        if (basename(path).toLowerCase() === 'index.json') throw new Error('not valid JSON');
        return; // some other file of the mirror
      }
      const d = doc as { files?: unknown; name?: unknown };
      if (typeof d === 'object' && d !== null && Array.isArray(d.files) && typeof d.name === 'string') await page(path);
      else if (isPackument(doc)) add(read, await npmArtifact(path, doc, read.problems));
    });

  const flat = new Map<string, PythonFile[]>();
  for (const path of files.dists) {
    if (consumed.has(path) || mavenDirs.some((m) => path.startsWith(m))) continue;
    await step(path, async () => {
      const dist = parseDistFileName(basename(path));
      if (!dist) throw new Error('not a wheel or sdist file name with a PEP 440 version');
      const info = await lstat(path);
      const key = normalizePythonName(dist.name);
      const list = flat.get(key) ?? [];
      list.push({
        filename: basename(path),
        kind: dist.kind,
        version: dist.version,
        localPath: path,
        size: info.size,
        time: info.mtime.toISOString(),
        cuda: cudaOf(root, path),
      });
      flat.set(key, list);
    });
  }
  for (const [name, list] of flat) add(read, await pythonArtifact(name, list, read.problems));
  return read;
}
