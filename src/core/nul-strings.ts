// NUL is refused in every string of every request: PostgreSQL cannot store it
// in text, SQLite and most clients truncate at it, and no name or description
// needs it. Checked once, generically, before any implementation runs.
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { ScalarType } from '@bufbuild/protobuf';

const MAX_DEPTH = 32;

function hasNul(v: unknown): boolean {
  return typeof v === 'string' && v.includes('\u0000');
}

function isString(f: DescField): boolean {
  return (f.fieldKind === 'scalar' || f.fieldKind === 'list' || f.fieldKind === 'map') && f.scalar === ScalarType.STRING;
}

function messageOf(f: DescField): DescMessage | undefined {
  if (f.fieldKind === 'message') return f.message;
  if (f.fieldKind === 'list' && f.listKind === 'message') return f.message;
  if (f.fieldKind === 'map' && f.mapKind === 'message') return f.message;
  return undefined;
}

/** The path of the first string field holding NUL (map keys included), or undefined. */
export function findNulString(desc: DescMessage, msg: Record<string, unknown> | undefined, depth = 0): string | undefined {
  if (!msg || depth > MAX_DEPTH) return undefined;
  for (const f of desc.fields) {
    const raw = f.oneof ? (msg[f.oneof.localName] as { case?: string; value?: unknown } | undefined) : undefined;
    const value = f.oneof ? (raw?.case === f.localName ? raw.value : undefined) : msg[f.localName];
    if (value === undefined || value === null) continue;
    const inner = messageOf(f);
    if (f.fieldKind === 'map') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (hasNul(k) || (isString(f) && hasNul(v))) return `${f.name}[${JSON.stringify(k.replaceAll('\u0000', '\\0'))}]`;
        const below = inner ? findNulString(inner, v as Record<string, unknown>, depth + 1) : undefined;
        if (below) return `${f.name}.${below}`;
      }
    } else if (f.fieldKind === 'list') {
      const list = value as unknown[];
      for (let i = 0; i < list.length; i++) {
        if (isString(f) && hasNul(list[i])) return `${f.name}[${i}]`;
        const below = inner ? findNulString(inner, list[i] as Record<string, unknown>, depth + 1) : undefined;
        if (below) return `${f.name}[${i}].${below}`;
      }
    } else if (inner) {
      const below = findNulString(inner, value as Record<string, unknown>, depth + 1);
      if (below) return `${f.name}.${below}`;
    } else if (isString(f) && hasNul(value)) {
      return f.name;
    }
  }
  return undefined;
}
