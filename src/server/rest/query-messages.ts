// Repeated message fields a REST query may set: grpc-gateway's parser cannot
// (reference §1.4 item 6), so these are Berth's extension, each message type
// with its text form. Every one also takes a JSON object (`{"repo":"a"}`),
// checked by the same strict JSON parse as a body.
import type { JsonObject } from '@bufbuild/protobuf';

/** Longest value of one such parameter. */
export const MAX_MESSAGE_PARAM = 4096;

/** An image ref as `<repo>[:<tag>[,<tag>…]]`: the repo's name, then its tags ("latest" when none). */
function imageRef(raw: string): JsonObject {
  const colon = raw.indexOf(':');
  if (colon < 0) return { repo: raw };
  return { repo: raw.slice(0, colon), tags: raw.slice(colon + 1).split(',') };
}

/** A manifest metadata entry as `<image digest>`, or `<index digest>/<arch>` for an index's image. */
function manifestEntry(raw: string): JsonObject {
  const slash = raw.indexOf('/');
  if (slash < 0) return { imageDigest: raw };
  return { indexFilter: { digest: raw.slice(0, slash), arch: raw.slice(slash + 1) } };
}

const TEXT_FORMS: Readonly<Record<string, (raw: string) => JsonObject>> = {
  'berth.advisory.v2.ImageRef': imageRef,
  'berth.advisory.v1.ImageRef': imageRef,
  'berth.registry.v1.ManifestMetadataFilterEntry': manifestEntry,
};

/** Whether a query parameter may set a repeated field of this message type. */
export function queryMessageType(typeName: string): boolean {
  return Object.hasOwn(TEXT_FORMS, typeName);
}

/** The JSON value of one query value for such a field; throws a plain Error with the reason when it is neither form. */
export function queryMessageValue(typeName: string, raw: string): JsonObject {
  if (raw.length > MAX_MESSAGE_PARAM) throw new Error(`longer than ${MAX_MESSAGE_PARAM} characters`);
  if (raw.trimStart().startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new Error(`malformed JSON: ${(err as Error).message.slice(0, 200)}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('must be a JSON object');
    return value as JsonObject;
  }
  return TEXT_FORMS[typeName](raw);
}
