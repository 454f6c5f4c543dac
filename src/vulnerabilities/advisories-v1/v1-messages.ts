// The v1 shapes over the same rows as v2: advisories and events read back
// as berth.vulnerabilities.v1 messages, and a v1 event's payload turned into
// the v2 proto3 JSON that advisory_events.data holds. The two differ only
// in names (scanv1's subpackageName/componentName vs subpackage/component,
// the false-positive type's TYPE_ prefix) and in v1's narrower Fixed.
import { fromJson, toJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import {
  AdvisoryEventSchema as V1EventSchema,
  AdvisorySchema as V1AdvisorySchema,
  type Advisory as V1Advisory,
  type AdvisoryEvent as V1Event,
} from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import { AdvisoryEventSchema as V2EventSchema } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { EVENT_KINDS, KIND_NAMES, type EventKind } from '../event-kinds.js';
import { aliasesOf, type AdvisoryEventRow, type AdvisoryRow } from '../advisories/advisory-read.js';

type Obj = { [key: string]: JsonValue };

function isObj(v: JsonValue | undefined): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function rename(o: Obj, from: string, to: string): Obj {
  if (!(from in o)) return o;
  const { [from]: v, ...rest } = o;
  return { ...rest, [to]: v };
}

/** v2 data ({"<case>": payload}) → the v1 event's oneof, as JSON. */
function v1Payload(data: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(data)) {
    if (!isObj(v)) continue;
    if (k === 'detection' && isObj(v.scanv1)) {
      out[k] = { scanv1: rename(rename(v.scanv1, 'subpackage', 'subpackageName'), 'component', 'componentName') };
    } else if (k === 'falsePositiveDetermination' && typeof v.type === 'string') {
      out[k] = { ...v, type: v.type.replace(/^TYPE_/, '') };
    } else if (k === 'fixed') {
      out[k] = v.fixedVersion === undefined ? {} : { fixedVersion: v.fixedVersion };
    } else {
      out[k] = v;
    }
  }
  return out;
}

export function v1EventFromRow(row: AdvisoryEventRow): V1Event {
  const e = fromJson(V1EventSchema, v1Payload(JSON.parse(row.data) as Obj), { ignoreUnknownFields: true });
  e.id = row.uid;
  e.timestamp = isoToTimestamp(row.create_time);
  e.author = row.author;
  e.reviewer = row.reviewer;
  e.status = row.review_state;
  if (row.findings) e.findings = row.findings instanceof Uint8Array ? row.findings : new Uint8Array(row.findings);
  if (row.issue !== null) e.issue = row.issue;
  return e;
}

export function v1AdvisoryFromRow(row: AdvisoryRow, events: readonly AdvisoryEventRow[]): V1Advisory {
  const a = fromJson(V1AdvisorySchema, {
    id: row.uid,
    advisoryId: row.advisory_id,
    artifactType: row.artifact_type,
    artifactName: row.artifact_name,
    artifactArchitecture: row.artifact_architecture,
    componentName: row.component_name,
    componentLocation: row.component_location,
    componentType: row.component_type,
    createdAt: row.create_time,
    updatedAt: row.update_time,
    aliases: aliasesOf(row),
    author: row.author,
    ...(row.legacy_advisory_id !== null ? { legacyAdvisoryID: row.legacy_advisory_id } : {}),
  });
  a.events = events.map(v1EventFromRow);
  return a;
}

/** What a v1 event says, as the store keeps it: its kind and the v2 payload of its oneof case. */
export interface EventPayload {
  kind: EventKind;
  payload: JsonObject;
}

const KIND_OF_CASE = new Map<string, EventKind>(EVENT_KINDS.map((k) => [KIND_NAMES[k].oneofCase, k]));

/**
 * The kind and v2 payload of a v1 event's oneof; undefined when it has none.
 * Throws protobuf-es's error when the v2 form does not parse (cannot happen
 * for a parsed v1 message, but the stored form is checked, not assumed).
 */
export function payloadOfV1(e: V1Event): EventPayload | undefined {
  if (e.type.case === undefined) return undefined;
  const json = toJson(V1EventSchema, e) as Obj;
  const kind = KIND_OF_CASE.get(e.type.case);
  if (!kind) return undefined;
  let payload = (json[e.type.case] ?? {}) as Obj;
  if (kind === 'detection' && isObj(payload.scanv1)) {
    payload = { scanv1: rename(rename(payload.scanv1, 'subpackageName', 'subpackage'), 'componentName', 'component') };
  }
  if (kind === 'false-positive-determination' && typeof payload.type === 'string') payload = { ...payload, type: `TYPE_${payload.type}` };
  fromJson(V2EventSchema, { [e.type.case]: payload });
  return { kind, payload };
}
