// A project page of a Python simple index: PEP 503 HTML (an anchor per file,
// its text the file name) or PEP 691 JSON (files[] with filename, url, and
// with PEP 700 size and upload-time). A file the page links to by a relative
// URL that lies under the imported directory is read for its size, time and
// metadata; anything else is taken from the page.
import { lstat, stat } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';
import { MAX_INDEX_BYTES, readBounded } from './bounded-read.js';
import { CatalogueFileError } from './import-problem.js';
import { parseDistFileName } from './python-filenames.js';
import type { PythonFile } from './python-project.js';

export interface IndexPage {
  /** The project's name as the page gives it (PEP 691) or its directory's. */
  name: string;
  files: PythonFile[];
  /** Local files the page linked to (not imported again as flat files). */
  consumed: string[];
}

interface Link {
  filename: string;
  href: string;
  size?: number;
  time?: string;
}

const ANCHOR = /<a\s([^>]*)>([^<]*)<\/a>/gi;
const HREF = /href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

function htmlLinks(text: string): Link[] {
  const out: Link[] = [];
  for (const m of text.matchAll(ANCHOR)) {
    const h = HREF.exec(m[1]);
    if (!h) continue;
    const href = (h[1] ?? h[2] ?? h[3]).replace(/&amp;/g, '&');
    const filename = m[2].trim();
    if (filename !== '') out.push({ filename, href });
  }
  return out;
}

function jsonLinks(path: string, text: string): { name: string; links: Link[] } {
  let doc: { name?: unknown; files?: unknown };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CatalogueFileError(path, 'not valid JSON');
  }
  if (typeof doc.name !== 'string' || !Array.isArray(doc.files)) throw new CatalogueFileError(path, 'not a PEP 691 project page (name, files[])');
  const links: Link[] = [];
  for (const f of doc.files as Array<Record<string, unknown>>) {
    if (typeof f?.filename !== 'string' || typeof f.url !== 'string') continue;
    const time = typeof f['upload-time'] === 'string' && !Number.isNaN(Date.parse(f['upload-time'])) ? new Date(f['upload-time']).toISOString() : undefined;
    links.push({ filename: f.filename, href: f.url, size: typeof f.size === 'number' && f.size >= 0 ? f.size : undefined, time });
  }
  return { name: doc.name.slice(0, 256), links };
}

/** The local file a relative href names, when it lies under `root`. */
function localTarget(page: string, href: string, root: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(href.split('#')[0].split('?')[0]);
  } catch {
    return undefined;
  }
  const target = resolve(dirname(page), rel);
  return target.startsWith(root + sep) ? target : undefined;
}

export function isJsonPage(text: string): boolean {
  return text.trimStart().startsWith('{');
}

export async function readIndexPage(path: string, root: string, cuda: string): Promise<IndexPage | undefined> {
  const bytes = await readBounded(path, MAX_INDEX_BYTES);
  const text = bytes.toString('utf8');
  const pageTime = (await stat(path)).mtime.toISOString();
  let name = basename(dirname(path));
  let links: Link[];
  if (isJsonPage(text)) {
    const doc = jsonLinks(path, text);
    name = doc.name;
    links = doc.links;
  } else links = htmlLinks(text);
  const files: PythonFile[] = [];
  const consumed: string[] = [];
  for (const l of links) {
    const dist = parseDistFileName(l.filename);
    if (!dist) continue;
    const local = localTarget(path, l.href, root);
    let size = l.size ?? 0;
    let time = l.time ?? pageTime;
    let localPath: string | undefined;
    if (local) {
      const info = await lstat(local).catch(() => undefined);
      if (info?.isFile()) {
        localPath = local;
        consumed.push(local);
        size = l.size ?? info.size;
        time = l.time ?? info.mtime.toISOString();
      }
    }
    files.push({ filename: l.filename, kind: dist.kind, version: dist.version, localPath, size, time, cuda });
  }
  if (files.length === 0) return undefined; // the root page, or a page without distributions
  return { name, files, consumed };
}
