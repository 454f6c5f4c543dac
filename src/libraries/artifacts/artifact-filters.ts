// The filters ListArtifacts shares with the v1 List: ecosystems (required),
// query (a case-insensitive substring of the name), cuda_version and
// remediated, validated and turned into list conditions.
import type { FieldViolation } from '../../core/api-error.js';
import { contains, equal, oneOf, type Condition } from '../../list/conditions.js';
import type { EcosystemName } from '../ecosystems.js';
import { cudaFilterValue } from '../version-variants.js';

export const MAX_ECOSYSTEMS = 8;
export const MAX_QUERY = 256;

export interface ArtifactFilterInput {
  /** Each requested ecosystem, undefined where the value is unspecified or unknown. */
  ecosystems: ReadonlyArray<EcosystemName | undefined>;
  query: string;
  cudaVersion?: string;
  remediated: boolean;
}

export function ecosystemsViolations(ecosystems: ReadonlyArray<EcosystemName | undefined>): FieldViolation[] {
  const v: FieldViolation[] = [];
  if (ecosystems.length === 0) v.push({ field: 'ecosystems', description: 'at least one ecosystem is required' });
  if (ecosystems.length > MAX_ECOSYSTEMS) v.push({ field: 'ecosystems', description: `at most ${MAX_ECOSYSTEMS} ecosystems` });
  if (ecosystems.some((e) => e === undefined)) v.push({ field: 'ecosystems', description: 'an unspecified or unknown ecosystem' });
  return v;
}

export function artifactFilters(f: ArtifactFilterInput): { conditions: Condition[]; key: unknown; violations: FieldViolation[] } {
  const violations = ecosystemsViolations(f.ecosystems);
  const names = [...new Set(f.ecosystems.filter((e): e is EcosystemName => e !== undefined))].sort();
  const conditions: Condition[] = [oneOf('ecosystem', names)];
  if (f.query.length > MAX_QUERY) violations.push({ field: 'query', description: `at most ${MAX_QUERY} characters` });
  const query = f.query.trim().toLowerCase();
  if (query !== '') conditions.push(contains('search_name', query));
  let cuda = '';
  if (f.cudaVersion !== undefined && f.cudaVersion !== '') {
    const c = f.cudaVersion.length <= 16 ? cudaFilterValue(f.cudaVersion) : undefined;
    if (c === undefined) violations.push({ field: 'cuda_version', description: 'a CUDA version such as cu128 or 12.8' });
    else {
      cuda = c;
      conditions.push(contains('cuda_versions', `,${c},`));
    }
  }
  if (f.remediated) conditions.push(equal('remediated', 1));
  return { conditions, key: { e: names, q: query, c: cuda, r: f.remediated }, violations };
}
