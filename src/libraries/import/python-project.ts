// One Python project from its distribution files (an index page's, or the
// flat files of one name): a version per distinct version, its size the
// primary file's (a wheel, else the sdist), its times the files' upload
// times, its description the Summary of a local file's metadata, and the
// display name the metadata's Name when a file was read.
import type { CatalogueArtifact, CatalogueVersion } from '../catalogue-writer.js';
import { artifactUid } from '../ecosystems.js';
import { cudaOfVersion, isRemediated } from '../version-variants.js';
import { sdistMetadata, wheelMetadata } from './dist-metadata.js';
import { type Problem, problemOf } from './import-problem.js';
import type { DistKind } from './python-filenames.js';

export interface PythonFile {
  filename: string;
  kind: DistKind;
  version: string;
  /** The file on disk, when the mirror holds it under the imported directory. */
  localPath?: string;
  size: number;
  /** ISO time: PEP 700 upload-time, else the file's or the page's mtime. */
  time: string;
  /** From a cuNNN index directory, "" otherwise. */
  cuda: string;
}

/** Wheels before sdists, a pure wheel first, then by name: the primary file is the first. */
function primaryFirst(a: PythonFile, b: PythonFile): number {
  const rank = (f: PythonFile) => (f.kind === 'wheel' ? (f.filename.endsWith('-none-any.whl') ? 0 : 1) : 2);
  return rank(a) - rank(b) || (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0);
}

export async function pythonArtifact(name: string, files: readonly PythonFile[], problems: Problem[]): Promise<CatalogueArtifact | undefined> {
  const byVersion = new Map<string, PythonFile[]>();
  for (const f of files) byVersion.set(f.version, [...(byVersion.get(f.version) ?? []), f]);
  let displayName = name;
  let newestWithName = '';
  const versions: CatalogueVersion[] = [];
  for (const [version, list] of byVersion) {
    list.sort(primaryFirst);
    let description: string | undefined;
    const usable: PythonFile[] = [];
    // Every local file is read: one that is not a readable distribution is reported and left out.
    for (const f of list) {
      if (!f.localPath) {
        usable.push(f);
        continue;
      }
      try {
        const meta = f.kind === 'wheel' ? await wheelMetadata(f.localPath) : await sdistMetadata(f.localPath);
        usable.push(f);
        if (!meta || description !== undefined) continue;
        description = meta.summary;
        if (meta.name !== '' && f.time >= newestWithName) {
          displayName = meta.name;
          newestWithName = f.time;
        }
      } catch (err) {
        problems.push(problemOf(f.localPath, err));
      }
    }
    if (usable.length === 0) continue;
    const times = usable.map((f) => f.time).sort();
    versions.push({
      version,
      description: description ?? '',
      sizeBytes: usable[0].size,
      createTime: times[0],
      updateTime: times[times.length - 1],
      remediated: isRemediated('python', version),
      cudaVersion: cudaOfVersion(version) || (usable.find((f) => f.cuda !== '')?.cuda ?? ''),
    });
  }
  if (versions.length === 0) return undefined;
  return { ecosystem: 'python', uid: artifactUid('python', name), name: displayName, versions };
}
