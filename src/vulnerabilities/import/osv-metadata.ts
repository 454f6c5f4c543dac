// OSV record → vulnerability metadata (the /advisory/v2/metadata row and the
// source of advisories' severities): id, summary, details, references and
// CVSS severities in berth.advisory.v2's proto3 JSON. OSV's GIT reference
// type (and any type the enum lacks) becomes TYPE_WEB; Ubuntu severities
// (and unknown kinds) have no v2 value and are dropped. Pure.
import { JsonFields } from './json-input.js';
import type { JsonValue } from './normalized-advisory.js';

export interface MetadataReference {
  type: string;
  url: string;
}

export interface MetadataSeverity {
  type: 'TYPE_CVSS_V2' | 'TYPE_CVSS_V3' | 'TYPE_CVSS_V4';
  score: string;
}

/** One vulnerability_metadata row before it is stored (refs and severities as values, not JSON text). */
export interface VulnerabilityMetadataRecord {
  id: string;
  summary: string;
  details: string;
  refs: MetadataReference[];
  severities: MetadataSeverity[];
  /** The record's modified time, RFC 3339 UTC with milliseconds. */
  modified: string;
}

const REFERENCE_TYPES = new Set(['ADVISORY', 'ARTICLE', 'DETECTION', 'DISCUSSION', 'REPORT', 'FIX', 'INTRODUCED', 'PACKAGE', 'EVIDENCE', 'WEB']);
const SEVERITY_TYPES: Readonly<Record<string, MetadataSeverity['type']>> = { CVSS_V2: 'TYPE_CVSS_V2', CVSS_V3: 'TYPE_CVSS_V3', CVSS_V4: 'TYPE_CVSS_V4' };
const MAX_REFERENCES = 1_000;
const MAX_SEVERITIES = 100;
const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The metadata of one OSV record; undefined for a withdrawn one. */
export function osvMetadata(file: string, value: JsonValue): VulnerabilityMetadataRecord | undefined {
  const f = new JsonFields(file);
  const record = f.object(value, 'record');
  const id = f.string(record.id, 'id');
  if (!ID.test(id)) f.fail('id', `not a vulnerability id: ${id.slice(0, 64)}`);
  const modified = f.time(record.modified, 'modified');
  if (record.withdrawn !== undefined && record.withdrawn !== null) {
    f.time(record.withdrawn, 'withdrawn');
    return undefined;
  }
  const references = f.optionalArray(record.references, 'references');
  if (references.length > MAX_REFERENCES) f.fail('references', `more than ${MAX_REFERENCES} references`);
  const refs = references.map((v, i) => {
    const r = f.object(v, `references[${i}]`);
    const type = f.string(r.type, `references[${i}].type`);
    return { type: `TYPE_${REFERENCE_TYPES.has(type) ? type : 'WEB'}`, url: f.string(r.url, `references[${i}].url`) };
  });
  // Severities of the record, then of its affected packages (some databases put them there), each once.
  const lists = [{ where: 'severity', list: f.optionalArray(record.severity, 'severity') }];
  f.optionalArray(record.affected, 'affected').forEach((a, i) => {
    lists.push({ where: `affected[${i}].severity`, list: f.optionalArray(f.object(a, `affected[${i}]`).severity, `affected[${i}].severity`) });
  });
  const severities: MetadataSeverity[] = [];
  const seen = new Set<string>();
  for (const { where, list } of lists)
    list.forEach((v, i) => {
      const s = f.object(v, `${where}[${i}]`);
      const type = SEVERITY_TYPES[f.string(s.type, `${where}[${i}].type`)];
      const score = f.string(s.score, `${where}[${i}].score`);
      const key = `${type}\u0000${score}`;
      if (!type || seen.has(key)) return;
      seen.add(key);
      severities.push({ type, score });
    });
  if (severities.length > MAX_SEVERITIES) f.fail('severity', `more than ${MAX_SEVERITIES} severities`);
  return {
    id,
    summary: f.optionalString(record.summary, 'summary') ?? '',
    details: f.optionalString(record.details, 'details') ?? '',
    refs,
    severities,
    modified,
  };
}
