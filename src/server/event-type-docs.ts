// docs/event-types.md's table of API events, rendered from the services'
// berth.annotations.v1.events annotations: the protos declare each RPC's
// event, and the docs follow them (a drift test holds them together).
import { getOption, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { EventAttributes_Audience, events } from '../gen/berth/annotations/v1/annotations_pb.js';

export const EVENTS_BEGIN = "<!-- generated from the protos' event annotations (npm run docs): begin -->";
export const EVENTS_END = "<!-- generated from the protos' event annotations: end -->";

/** The body's message: the one the annotation names, else what the RPC returns, or its request when it returns nothing (a delete, or a message without fields). */
export function eventBodyType(m: DescMethod): string {
  const named = getOption(m, events).body;
  if (named !== '') return named;
  return m.output.fields.length === 0 ? m.input.typeName : m.output.typeName;
}

export function renderEventTable(services: readonly DescService[]): string {
  const out = [EVENTS_BEGIN, '', '| type (after the namespace) | emitted by | body | audience | extensions |', '|---|---|---|---|---|'];
  const silent: string[] = [];
  for (const s of services) {
    for (const m of s.methods) {
      const e = getOption(m, events);
      if (e.none) silent.push(`\`${s.typeName}.${m.name}\``);
      if (e.type === '') continue;
      const audience = e.audience === EventAttributes_Audience.CUSTOMER ? 'customer' : 'internal';
      const ext = e.extensions.map((x) => `\`${x}\``).join(', ');
      out.push(`| \`${e.type}\` | \`${s.typeName}.${m.name}\` | \`${eventBodyType(m)}\` | ${audience} | ${ext} |`);
    }
  }
  if (silent.length > 0) out.push('', `Mutating RPCs that declare no event on purpose: ${silent.join(', ')}.`);
  out.push('', EVENTS_END);
  return out.join('\n');
}
