// The one writer of the library catalogue (library_artifacts,
// library_versions), inside the caller's transaction: merges imported
// artifacts into a group's catalogue. A version is added or, when what the
// import read of it changed, updated; versions the input lacks are kept (an
// import adds to a mirror). After the merge each touched artifact's ranks and
// summary (latest version, count, times, variants) are recomputed from all
// its versions. Importing the same input again writes nothing.
import type { Tx } from '../store/transact.js';
import { ECOSYSTEMS, type EcosystemName } from './ecosystems.js';
import type { LibraryArtifactTable, LibraryVersionTable } from './library-tables.js';
import { versionRanks } from './version-ranks.js';

export interface CatalogueVersion {
  version: string;
  description: string;
  sizeBytes: number;
  createTime: string;
  updateTime: string;
  remediated: boolean;
  cudaVersion: string;
}

export interface CatalogueArtifact {
  ecosystem: EcosystemName;
  uid: string;
  name: string;
  versions: CatalogueVersion[];
}

export interface WriteCounts {
  artifactsAdded: number;
  artifactsChanged: number;
  versionsAdded: number;
  versionsChanged: number;
  versionsUnchanged: number;
}

// Rows per multi-row statement: under SQLite's and PostgreSQL's bound-parameter limits.
const ROWS_PER_INSERT = 1000;
const KEYS_PER_READ = 500;

export const artifactKey = (group: string, uid: string) => `${group} ${uid}`;

function chunks<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

function versionRow(artifactKeyText: string, a: CatalogueArtifact, v: CatalogueVersion): LibraryVersionTable {
  return {
    key: `${artifactKeyText} ${v.version}`,
    artifact_key: artifactKeyText,
    uid: `${a.uid}:${v.version}`,
    version: v.version,
    version_rank: '',
    description: v.description,
    size_bytes: v.sizeBytes,
    create_time: v.createTime,
    update_time: v.updateTime,
    remediated: v.remediated ? 1 : 0,
    cuda_version: v.cudaVersion,
  };
}

const sameVersion = (a: LibraryVersionTable, b: LibraryVersionTable) =>
  a.description === b.description &&
  Number(a.size_bytes) === Number(b.size_bytes) &&
  a.create_time === b.create_time &&
  a.update_time === b.update_time &&
  Number(a.remediated) === b.remediated &&
  a.cuda_version === b.cuda_version;

/** The artifact row that summarizes `versions` (all of them, ranked). */
function summary(group: string, a: CatalogueArtifact, versions: readonly LibraryVersionTable[]): LibraryArtifactTable {
  let latest = versions[0];
  for (const v of versions) if (v.version_rank > latest.version_rank || (v.version_rank === latest.version_rank && v.key > latest.key)) latest = v;
  const cuda = [...new Set(versions.map((v) => v.cuda_version).filter((c) => c !== ''))].sort();
  return {
    key: artifactKey(group, a.uid),
    group_uid: group,
    uid: a.uid,
    ecosystem: a.ecosystem,
    name: a.name,
    search_name: a.name.toLowerCase(),
    description: latest.description,
    latest_version: latest.version,
    version_count: versions.length,
    remediated: versions.some((v) => Number(v.remediated) === 1) ? 1 : 0,
    cuda_versions: cuda.length > 0 ? `,${cuda.join(',')},` : '',
    create_time: versions.reduce((m, v) => (v.create_time < m ? v.create_time : m), versions[0].create_time),
    update_time: versions.reduce((m, v) => (v.update_time > m ? v.update_time : m), versions[0].update_time),
  };
}

const sameArtifact = (a: LibraryArtifactTable, b: LibraryArtifactTable) =>
  (Object.keys(b) as Array<keyof LibraryArtifactTable>).every((k) => String(a[k]) === String(b[k]));

/** Merges `artifacts` (each uid at most once, with at least one version) into `group`'s catalogue. */
export async function writeCatalogue(tx: Tx, group: string, artifacts: readonly CatalogueArtifact[]): Promise<WriteCounts> {
  const counts: WriteCounts = { artifactsAdded: 0, artifactsChanged: 0, versionsAdded: 0, versionsChanged: 0, versionsUnchanged: 0 };
  const keys = artifacts.map((a) => artifactKey(group, a.uid));
  const storedArtifacts = new Map<string, LibraryArtifactTable>();
  const storedVersions = new Map<string, LibraryVersionTable[]>();
  for (const part of chunks(keys, KEYS_PER_READ)) {
    for (const r of await tx.selectFrom('library_artifacts').selectAll().where('key', 'in', part).execute()) storedArtifacts.set(r.key, r);
    const known = part.filter((k) => storedArtifacts.has(k));
    if (known.length === 0) continue;
    for (const r of await tx.selectFrom('library_versions').selectAll().where('artifact_key', 'in', known).execute()) {
      const list = storedVersions.get(r.artifact_key) ?? [];
      list.push(r);
      storedVersions.set(r.artifact_key, list);
    }
  }

  const newArtifacts: LibraryArtifactTable[] = [];
  const newVersions: LibraryVersionTable[] = [];
  const changedArtifacts: LibraryArtifactTable[] = [];
  const changedVersions: LibraryVersionTable[] = [];
  for (const a of artifacts) {
    const key = artifactKey(group, a.uid);
    const stored = new Map((storedVersions.get(key) ?? []).map((v) => [v.version, v]));
    const merged = new Map(stored);
    const added = new Set<string>();
    const updated = new Set<string>();
    for (const v of a.versions) {
      const row = versionRow(key, a, v);
      const old = stored.get(v.version);
      if (!old) {
        added.add(v.version);
        merged.set(v.version, row);
      } else if (!sameVersion(old, row)) {
        updated.add(v.version);
        merged.set(v.version, { ...row, version_rank: old.version_rank });
      } else counts.versionsUnchanged++;
    }
    if (added.size > 0) {
      const ranks = versionRanks(ECOSYSTEMS[a.ecosystem].scheme, [...merged.keys()]);
      for (const [version, row] of merged) {
        const rank = ranks.get(version)!;
        if (row.version_rank === rank) continue;
        merged.set(version, { ...row, version_rank: rank });
        if (!added.has(version)) updated.add(version);
      }
    }
    counts.versionsAdded += added.size;
    counts.versionsChanged += [...updated].filter((v) => stored.has(v) && !sameVersion(stored.get(v)!, merged.get(v)!)).length;
    for (const v of added) newVersions.push(merged.get(v)!);
    for (const v of updated) changedVersions.push(merged.get(v)!);
    const row = summary(group, a, [...merged.values()]);
    const old = storedArtifacts.get(key);
    if (!old) {
      counts.artifactsAdded++;
      newArtifacts.push(row);
    } else if (!sameArtifact(old, row)) {
      counts.artifactsChanged++;
      changedArtifacts.push(row);
    }
  }

  for (const part of chunks(newArtifacts, ROWS_PER_INSERT)) await tx.insertInto('library_artifacts').values(part).execute();
  for (const r of changedArtifacts) {
    const { key, ...rest } = r;
    await tx.updateTable('library_artifacts').set(rest).where('key', '=', key).execute();
  }
  for (const part of chunks(newVersions, ROWS_PER_INSERT)) await tx.insertInto('library_versions').values(part).execute();
  for (const r of changedVersions) {
    const { key, ...rest } = r;
    await tx.updateTable('library_versions').set(rest).where('key', '=', key).execute();
  }
  return counts;
}
