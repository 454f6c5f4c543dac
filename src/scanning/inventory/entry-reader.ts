// One tar entry → what the image holds at its path: chosen by the path (the
// well-known database and metadata locations, jars) or, for other regular
// files, by their first bytes (ELF binaries). Every reader is bounded and
// turns a malformed file into a SkippedEntry.
import type { Header } from 'tar-stream';
import { APK_DATABASE_PATHS, APK_FORMAT, apkRecord } from './apk-database.js';
import { DPKG_FORMAT, DPKG_STATUS_PATH, dpkgRecord, isStatusDFile } from './dpkg-status.js';
import { readBinaryFile } from './binary-files.js';
import { type EntryStream, readBounded } from './entry-bytes.js';
import type { EntryContext } from './entry-context.js';
import { readLanguageFile, languageFileKind } from './language-files.js';
import type { OsPackageRecord } from './os-package-record.js';
import { OS_RELEASE_PATHS, parseOsRelease } from './os-release.js';
import { StanzaReader, type Stanza } from './stanza-lines.js';

/** Longest field line of a package database worth reading (apk and dpkg lines are short). */
const MAX_DB_LINE = 64 * 1024;

export async function readEntry(ctx: EntryContext, header: Header, path: string, entry: EntryStream): Promise<void> {
  const size = header.size ?? 0;
  const apk = APK_DATABASE_PATHS.includes(path);
  if (apk || path === DPKG_STATUS_PATH) {
    const format = apk ? 'apk' : 'dpkg';
    const records = await readDatabase(ctx, path, entry, format, ctx.limits.maxDatabaseBytes);
    ctx.files.put(path, { kind: 'os-db', format, records });
    return;
  }
  if ((OS_RELEASE_PATHS as readonly string[]).includes(path)) {
    const bytes = await readBounded(entry, size, ctx.limits.maxMetadataBytes);
    if (!bytes) return ctx.skip.add(path, `os-release larger than ${ctx.limits.maxMetadataBytes} bytes`, ctx.layer);
    ctx.files.put(path, { kind: 'os-release', os: parseOsRelease(bytes.toString('utf8')) });
    return;
  }
  if (isStatusDFile(path)) {
    const bytes = await readBounded(entry, size, ctx.limits.maxMetadataBytes);
    if (!bytes) return ctx.skip.add(path, `status.d file larger than ${ctx.limits.maxMetadataBytes} bytes`, ctx.layer);
    const records: OsPackageRecord[] = [];
    const reader = new StanzaReader(DPKG_FORMAT, MAX_DB_LINE, (s) => addDpkg(ctx, path, s, false, records));
    reader.push(bytes);
    reader.end();
    ctx.files.put(path, { kind: 'os-db', format: 'dpkg', records });
    return;
  }
  const kind = languageFileKind(path);
  if (kind) {
    const packages = await readLanguageFile(ctx, kind, path, size, entry);
    if (packages.length > 0) ctx.files.put(path, { kind: 'packages', packages });
    return;
  }
  const packages = await readBinaryFile(ctx, path, size, entry);
  if (packages.length > 0) ctx.files.put(path, { kind: 'packages', packages });
}

async function readDatabase(ctx: EntryContext, path: string, entry: EntryStream, format: 'apk' | 'dpkg', max: number): Promise<OsPackageRecord[]> {
  const records: OsPackageRecord[] = [];
  const onStanza = (s: Stanza) => {
    if (format === 'dpkg') return addDpkg(ctx, path, s, true, records);
    const record = apkRecord(s);
    if (typeof record === 'string') ctx.skip.add(path, record, ctx.layer);
    else records.push(record);
  };
  const reader = new StanzaReader(format === 'apk' ? APK_FORMAT : DPKG_FORMAT, MAX_DB_LINE, onStanza);
  let read = 0;
  let truncated = false;
  for await (const chunk of entry) {
    if (truncated) continue;
    read += chunk.length;
    if (read > max) {
      truncated = true;
      reader.push(chunk.subarray(0, chunk.length - (read - max)));
      reader.discard();
      continue;
    }
    reader.push(chunk);
  }
  reader.end();
  if (truncated) ctx.skip.add(path, `package database larger than ${max} bytes: only the packages wholly in its first ${max} bytes were read`, ctx.layer);
  if (reader.overlong > 0) ctx.skip.add(path, `${reader.overlong} lines longer than ${MAX_DB_LINE} bytes were not read`, ctx.layer);
  return records;
}

function addDpkg(ctx: EntryContext, path: string, s: Stanza, statusRequired: boolean, records: OsPackageRecord[]): void {
  const record = dpkgRecord(s, statusRequired);
  if (typeof record === 'string') ctx.skip.add(path, record, ctx.layer);
  else if (record) records.push(record);
}
