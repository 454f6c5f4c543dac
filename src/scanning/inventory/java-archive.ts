// Java archives (jar, war, ear): the Maven coordinates in
// `META-INF/maven/<groupId>/<artifactId>/pom.properties`, or, when an
// archive has none, `Implementation-Version` and `Implementation-Vendor-Id`
// of its MANIFEST.MF with the artifact named by the file. Jars inside the
// archive (WEB-INF/lib, BOOT-INF/lib) are read one level deep. The archive
// is buffered (the caller bounds it: a zip's directory is at its end) and
// read with yauzl; every entry is bounded while it inflates.
import yauzl from 'yauzl';
import { PackageURL } from 'packageurl-js';
import type { EntryContext } from './entry-context.js';
import type { InstalledPackage } from './inventory.js';
import { baseName } from './layer-paths.js';

const ARCHIVE = /\.(?:jar|war|ear)$/i;
const POM_PROPERTIES = /^META-INF\/maven\/[^/]+\/[^/]+\/pom\.properties$/;

export function isJavaArchive(path: string): boolean {
  return ARCHIVE.test(path);
}

export async function javaPackages(bytes: Buffer, path: string, ctx: EntryContext): Promise<InstalledPackage[]> {
  const out: InstalledPackage[] = [];
  await readArchive(bytes, path, ctx, 0, out, { left: ctx.limits.maxArchiveBytes });
  return out;
}

async function readArchive(
  bytes: Buffer,
  location: string,
  ctx: EntryContext,
  depth: number,
  out: InstalledPackage[],
  nested: { left: number },
): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  } catch (err) {
    ctx.skip.add(location, `not a readable zip archive: ${message(err)}`, ctx.layer);
    return;
  }
  const found: InstalledPackage[] = [];
  let manifest: string | undefined;
  let count = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (++count > ctx.limits.maxArchiveEntries) {
        ctx.skip.add(location, `archive with more than ${ctx.limits.maxArchiveEntries} entries: the rest were not read`, ctx.layer);
        break;
      }
      const name = entry.fileName;
      if (POM_PROPERTIES.test(name) || name === 'META-INF/MANIFEST.MF') {
        const data = await readZipEntry(zip, entry, ctx.limits.maxMetadataBytes);
        if (!data) {
          ctx.skip.add(`${location}!${name}`, `larger than ${ctx.limits.maxMetadataBytes} bytes`, ctx.layer);
          continue;
        }
        if (name === 'META-INF/MANIFEST.MF') manifest = data.toString('utf8');
        else {
          const pkg = pomPackage(data.toString('utf8'), location);
          if (pkg) found.push(pkg);
          else ctx.skip.add(`${location}!${name}`, 'pom.properties without groupId, artifactId and version', ctx.layer);
        }
      } else if (depth === 0 && ARCHIVE.test(name)) {
        const inner = `${location}!${name}`;
        const data = entry.uncompressedSize <= nested.left ? await readZipEntry(zip, entry, nested.left) : undefined;
        if (!data) {
          ctx.skip.add(inner, `nested archive over the ${ctx.limits.maxArchiveBytes}-byte bound of its outer archive`, ctx.layer);
          continue;
        }
        nested.left -= data.length;
        await readArchive(data, inner, ctx, depth + 1, out, nested);
      }
    }
  } catch (err) {
    ctx.skip.add(location, `broken zip archive: ${message(err)}`, ctx.layer);
  } finally {
    zip.close();
  }
  if (found.length === 0 && manifest !== undefined) {
    const pkg = manifestPackage(manifest, location);
    if (typeof pkg === 'string') ctx.skip.add(location, pkg, ctx.layer);
    else found.push(pkg);
  }
  out.push(...found);
}

// The header's size is the writer's claim: count what inflates, and stop at the bound.
async function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer | undefined> {
  if (entry.uncompressedSize > max) return undefined;
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > max) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** java.util.Properties lines: `key=value` or `key: value`, `#`/`!` comments. */
function properties(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line[0] === '#' || line[0] === '!') continue;
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (m) map.set(m[1], m[2]);
  }
  return map;
}

function pomPackage(text: string, location: string): InstalledPackage | undefined {
  const p = properties(text);
  const groupId = p.get('groupId');
  const artifactId = p.get('artifactId');
  const version = p.get('version');
  if (!groupId || !artifactId || !version) return undefined;
  return mavenPackage(groupId, artifactId, version, location);
}

/** The main section of a manifest (JAR File Specification): `Name: value`, continuation lines start with one space. */
function manifestPackage(text: string, location: string): InstalledPackage | string {
  // Continuation lines (a leading space) continue the line before, even inside a header name: join first, then split.
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break;
    if (line[0] === ' ' && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  const main = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) main.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const version = main.get('Implementation-Version');
  const groupId = main.get('Implementation-Vendor-Id');
  if (!version || !groupId) return 'Java archive without pom.properties, and its MANIFEST.MF names no Implementation-Vendor-Id and Implementation-Version';
  const file = baseName(location.slice(location.lastIndexOf('!') + 1)).replace(ARCHIVE, '');
  const artifactId = file.endsWith(`-${version}`) ? file.slice(0, -version.length - 1) : file;
  return mavenPackage(groupId, artifactId, version, location) ?? 'MANIFEST.MF with coordinates that make no purl';
}

function mavenPackage(groupId: string, artifactId: string, version: string, location: string): InstalledPackage | undefined {
  if ([groupId, artifactId, version].some((s) => s.length > 256 || s.includes('\u0000'))) return undefined;
  try {
    const purl = new PackageURL('maven', groupId, artifactId, version).toString();
    return { type: 'maven', namespace: groupId, name: artifactId, version, purl, locations: [location], foundBy: 'java' };
  } catch {
    return undefined;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
