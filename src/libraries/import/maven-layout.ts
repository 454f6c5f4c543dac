// One Maven artifact from a repository layout: its directory holds
// maven-metadata.xml (versioning: versions, lastUpdated) and a directory per
// version with <artifactId>-<version>.pom and usually a .jar. The primary
// file (the .jar, else the .pom) gives size and time; the POM's
// <description> (else <name>) the description. Group-level metadata (plugin
// prefixes) and snapshot metadata inside a version directory are not
// artifacts and are passed over.
import { lstat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { CatalogueArtifact, CatalogueVersion } from '../catalogue-writer.js';
import { artifactUid } from '../ecosystems.js';
import { isRemediated } from '../version-variants.js';
import { MAX_XML_BYTES, readBounded } from './bounded-read.js';
import { MAX_DESCRIPTION } from './core-metadata.js';
import { CatalogueFileError, type Problem, problemOf } from './import-problem.js';

const MAX_VERSIONS = 100_000;
const COORDINATE = /^[A-Za-z0-9_.-]{1,256}$/;
const VERSION = /^[^\s/\\]{1,256}$/;

// No entities beyond XML's own five, no DOCTYPE expansion (billion laughs).
const parser = new XMLParser({ ignoreAttributes: true, processEntities: false, htmlEntities: false, parseTagValue: false, trimValues: true });

function parseXml(path: string, bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE/i.test(text)) throw new CatalogueFileError(path, 'a DOCTYPE is not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new CatalogueFileError(path, `not well-formed XML: line ${valid.err.line}: ${valid.err.msg}`);
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new CatalogueFileError(path, `not well-formed XML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

const xmlUnescape = (s: string) => s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] ?? _m);

function text(v: unknown): string {
  return typeof v === 'string' ? xmlUnescape(v) : typeof v === 'number' ? String(v) : '';
}

/** yyyyMMddHHmmss (UTC) → ISO, or undefined. */
function lastUpdatedIso(v: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(v);
  if (!m) return undefined;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

async function fileInfo(path: string): Promise<{ size: number; time: string } | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() ? { size: info.size, time: info.mtime.toISOString() } : undefined;
}

async function pomDescription(path: string, problems: Problem[]): Promise<string> {
  try {
    const pom = parseXml(path, await readBounded(path, MAX_XML_BYTES));
    const project = (pom.project ?? {}) as Record<string, unknown>;
    const d = text(project.description).replace(/\s+/g, ' ').trim();
    return (d !== '' ? d : text(project.name).trim()).slice(0, MAX_DESCRIPTION);
  } catch (err) {
    problems.push(problemOf(path, err));
    return '';
  }
}

/** The artifact of the maven-metadata.xml at `path` (under `root`), or undefined when it describes no artifact. */
export async function readMavenArtifact(path: string, root: string, problems: Problem[]): Promise<CatalogueArtifact | undefined> {
  const doc = parseXml(path, await readBounded(path, MAX_XML_BYTES));
  const meta = doc.metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object') throw new CatalogueFileError(path, 'no <metadata> element');
  const versioning = (meta.versioning ?? {}) as Record<string, unknown>;
  const listed = (versioning.versions as Record<string, unknown> | undefined)?.version;
  if (listed === undefined || meta.version !== undefined) return undefined; // group-level or snapshot metadata
  const dir = dirname(path);
  const segments = relative(root, dir).split(sep);
  const artifactId = text(meta.artifactId) || basename(dir);
  const groupId = text(meta.groupId) || segments.slice(0, -1).join('.');
  if (!COORDINATE.test(artifactId) || !COORDINATE.test(groupId))
    throw new CatalogueFileError(path, 'groupId or artifactId is missing or not a Maven coordinate');
  const versions = (Array.isArray(listed) ? listed : [listed]).map(text).filter((v) => v !== '');
  if (versions.length > MAX_VERSIONS) throw new CatalogueFileError(path, `more than ${MAX_VERSIONS} versions`);
  const fallbackTime = lastUpdatedIso(text(versioning.lastUpdated)) ?? (await fileInfo(path))?.time ?? new Date(0).toISOString();
  const out: CatalogueVersion[] = [];
  for (const version of new Set(versions)) {
    if (!VERSION.test(version) || version === '.' || version === '..') {
      problems.push({ path, message: `version ${JSON.stringify(version.slice(0, 80))} is not a Maven version; skipped` });
      continue;
    }
    const base = join(dir, version, `${artifactId}-${version}`);
    const jar = await fileInfo(`${base}.jar`);
    const pom = await fileInfo(`${base}.pom`);
    const primary = jar ?? pom;
    out.push({
      version,
      description: pom ? await pomDescription(`${base}.pom`, problems) : '',
      sizeBytes: primary?.size ?? 0,
      createTime: primary?.time ?? fallbackTime,
      updateTime: primary?.time ?? fallbackTime,
      remediated: isRemediated('java', version),
      cudaVersion: '',
    });
  }
  if (out.length === 0) return undefined;
  const name = `${groupId}:${artifactId}`;
  return { ecosystem: 'java', uid: artifactUid('java', name), name, versions: out };
}
