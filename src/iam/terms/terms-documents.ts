// The legal documents a group may accept, configured by the operator with
// `berth serve --terms-file FILE`: JSON of the form
//   {"documents": [{"id": "tos.v1", "label": "Terms of Service", "url": "https://…"}]}
// The id names one version of a document (as the deployed API's
// "guardener-tos.v1" does): a new version is a new id, which every group must
// accept anew. The file is checked strictly at start, so a typo stops the
// server instead of silently offering nothing.
import { readFileSync, statSync } from 'node:fs';

export interface TermsDocument {
  id: string;
  /** Human-readable name, e.g. "Terms of Service". */
  label: string;
  /** Where the full text is. */
  url: string;
}

export const MAX_TERMS_FILE_BYTES = 1024 * 1024;
const MAX_DOCUMENTS = 100;
const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const MAX_LABEL = 200;
const MAX_URL = 2048;
const KEYS = ['id', 'label', 'url'];

function documentOf(v: unknown, i: number): TermsDocument {
  const at = `documents[${i}]`;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${at} must be an object with id, label and url`);
  const d = v as Record<string, unknown>;
  const extra = Object.keys(d).filter((k) => !KEYS.includes(k));
  if (extra.length > 0) throw new Error(`${at} has unknown keys ${extra.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} (allowed: ${KEYS.join(', ')})`);
  const { id, label, url } = d;
  if (typeof id !== 'string' || !ID.test(id)) throw new Error(`${at}.id must match ${ID} (e.g. "tos.v1": a new version is a new id)`);
  if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_LABEL || /\p{C}/u.test(label)) {
    throw new Error(`${at}.label must be 1-${MAX_LABEL} printable characters`);
  }
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= MAX_URL ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new Error(`${at}.url must be an http(s) URL of at most ${MAX_URL} characters`);
  return { id, label, url: url as string };
}

/** The documents of a terms file's text; throws an Error saying what is wrong. */
export function parseTermsFile(text: string): TermsDocument[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json) || !Array.isArray((json as { documents?: unknown }).documents)) {
    throw new Error('expected {"documents": [{"id", "label", "url"}, …]}');
  }
  const extra = Object.keys(json).filter((k) => k !== 'documents');
  if (extra.length > 0) throw new Error(`unknown top-level keys ${extra.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`);
  const list = (json as { documents: unknown[] }).documents;
  if (list.length > MAX_DOCUMENTS) throw new Error(`at most ${MAX_DOCUMENTS} documents`);
  const docs = list.map(documentOf);
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.id)) throw new Error(`document id ${JSON.stringify(d.id)} appears twice`);
    seen.add(d.id);
  }
  return docs;
}

/** Reads and checks `--terms-file`; the Error names the file. */
export function readTermsFile(path: string): TermsDocument[] {
  try {
    if (statSync(path).size > MAX_TERMS_FILE_BYTES) throw new Error(`larger than ${MAX_TERMS_FILE_BYTES} bytes`);
    return parseTermsFile(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`--terms-file ${path}: ${(err as Error).message}`);
  }
}
