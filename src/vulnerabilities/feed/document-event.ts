// A stored advisory event (advisory_events.data: {"<oneof case>": payload},
// the payload in berth.vulnerabilities.v2 proto3 JSON) as the feed's
// berth.advisory.v2.DocumentEvent. The two messages differ in three places:
// scanv1's `subpackage`/`component` are `subpackageName`/`componentName`
// here, `fixed` has no `note`, and there is no `patched` case.
import { fromJson, type JsonObject } from '@bufbuild/protobuf';
import { type DocumentEvent, DocumentEventSchema } from '../../gen/berth/advisory/v2/advisory_pb.js';

const SCANV1_RENAMES: Readonly<Record<string, string>> = { subpackage: 'subpackageName', component: 'componentName' };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function renamed(o: JsonObject, renames: Readonly<Record<string, string>>): JsonObject {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [renames[k] ?? k, v]));
}

/** The DocumentEvent JSON of a stored event, or undefined for a case the feed does not carry (patched). */
export function documentEventJson(data: string, createTime: string): JsonObject | undefined {
  const stored: unknown = JSON.parse(data);
  if (!isObject(stored)) return undefined;
  const [entry] = Object.entries(stored);
  if (!entry) return undefined;
  const [kind, payload] = entry;
  if (!isObject(payload)) return undefined;
  let out: JsonObject;
  switch (kind) {
    case 'patched':
      return undefined;
    case 'fixed': {
      const { note: _note, ...rest } = payload;
      out = rest;
      break;
    }
    case 'detection':
      out = isObject(payload.scanv1) ? { ...payload, scanv1: renamed(payload.scanv1, SCANV1_RENAMES) } : payload;
      break;
    default:
      out = payload;
  }
  return { timestamp: createTime, [kind]: out };
}

/** The DocumentEvent of a stored event; unknown fields (a newer writer's) are left out rather than failing the feed. */
export function documentEvent(data: string, createTime: string): DocumentEvent | undefined {
  const json = documentEventJson(data, createTime);
  return json && fromJson(DocumentEventSchema, json, { ignoreUnknownFields: true });
}
