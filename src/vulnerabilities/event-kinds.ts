// The kinds of advisory event, and how each is named in every place it
// appears: the YAML schema's `type`, the v2 oneof case, the EventTypeFilter
// number stored in advisory_events.type. One table, so no two modules map
// them differently.
import { EventTypeFilter } from '../gen/berth/vulnerabilities/v2/advisories_pb.js';

export const EVENT_KINDS = [
  'detection',
  'true-positive-determination',
  'fixed',
  'false-positive-determination',
  'analysis-not-planned',
  'fix-not-planned',
  'pending-upstream-fix',
  'patched',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

interface KindNames {
  /** The oneof case of berth.vulnerabilities.v2.AdvisoryEvent (and its JSON key). */
  oneofCase:
    | 'detection'
    | 'truePositiveDetermination'
    | 'fixed'
    | 'falsePositiveDetermination'
    | 'analysisNotPlanned'
    | 'fixNotPlanned'
    | 'pendingUpstreamFix'
    | 'patched';
  filter: EventTypeFilter;
}

export const KIND_NAMES: Readonly<Record<EventKind, KindNames>> = {
  detection: { oneofCase: 'detection', filter: EventTypeFilter.DETECTION },
  'true-positive-determination': { oneofCase: 'truePositiveDetermination', filter: EventTypeFilter.TRUE_POSITIVE_DETERMINATION },
  fixed: { oneofCase: 'fixed', filter: EventTypeFilter.FIXED },
  'false-positive-determination': { oneofCase: 'falsePositiveDetermination', filter: EventTypeFilter.FALSE_POSITIVE_DETERMINATION },
  'analysis-not-planned': { oneofCase: 'analysisNotPlanned', filter: EventTypeFilter.ANALYSIS_NOT_PLANNED },
  'fix-not-planned': { oneofCase: 'fixNotPlanned', filter: EventTypeFilter.FIX_NOT_PLANNED },
  'pending-upstream-fix': { oneofCase: 'pendingUpstreamFix', filter: EventTypeFilter.PENDING_UPSTREAM_FIX },
  patched: { oneofCase: 'patched', filter: EventTypeFilter.PATCHED },
};

/** False-positive types: the YAML schema's word, the v2 enum name, the OpenVEX justification. */
export const FALSE_POSITIVE_TYPES = [
  { yaml: 'vulnerability-record-analysis-contested', proto: 'TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED', vex: 'vulnerable_code_not_present' },
  { yaml: 'component-vulnerability-mismatch', proto: 'TYPE_COMPONENT_VULNERABILITY_MISMATCH', vex: 'component_not_present' },
  { yaml: 'vulnerable-code-version-not-used', proto: 'TYPE_VULNERABLE_CODE_VERSION_NOT_USED', vex: 'vulnerable_code_not_present' },
  { yaml: 'vulnerable-code-not-included-in-package', proto: 'TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE', vex: 'vulnerable_code_not_present' },
  { yaml: 'vulnerable-code-not-in-execution-path', proto: 'TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH', vex: 'vulnerable_code_not_in_execute_path' },
  {
    yaml: 'vulnerable-code-cannot-be-controlled-by-adversary',
    proto: 'TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY',
    vex: 'vulnerable_code_cannot_be_controlled_by_adversary',
  },
  { yaml: 'inline-mitigations-exist', proto: 'TYPE_INLINE_MITIGATIONS_EXIST', vex: 'inline_mitigations_already_exist' },
] as const;
