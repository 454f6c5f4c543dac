// What a version string says about its build (reference §4): a remediated
// rebuild carries +cgr.N (Python local version) or -0.cgr.N (Maven); a CUDA
// wheel a +cuNNN local tag (or comes from a cuNNN index directory).
import type { EcosystemName } from './ecosystems.js';

export function isRemediated(ecosystem: EcosystemName, version: string): boolean {
  if (ecosystem === 'python') return /\+(?:.*[.])?cgr[.]\d+(?:[.].*)?$/i.test(version);
  if (ecosystem === 'java') return /-0[.]cgr[.]\d+$/i.test(version);
  return /-0[.]cgr[.]\d+$/i.test(version);
}

/** cu128 from a local tag such as +cu128 or +cgr.1.cu128; "" when there is none. */
export function cudaOfVersion(version: string): string {
  const local = version.split('+')[1];
  if (local === undefined) return '';
  const m = /(?:^|[.])(cu\d{2,4})(?:[.]|$)/i.exec(local);
  return m ? m[1].toLowerCase() : '';
}

/** A path segment naming a CUDA index (cu126, cu128). */
export function cudaOfDirectory(segment: string): string {
  return /^cu\d{2,4}$/i.test(segment) ? segment.toLowerCase() : '';
}

/** The cuda_version filter: cu128 or 12.8 → cu128; undefined when it is neither. */
export function cudaFilterValue(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  if (/^cu\d{2,4}$/.test(t)) return t;
  const m = /^(\d{1,2})\.(\d{1,2})$/.exec(t);
  return m ? `cu${m[1]}${m[2]}` : undefined;
}
