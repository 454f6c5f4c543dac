// docs/event-types.md's table of API events cannot drift: it must be what the
// event annotations of the served services generate (npm run docs), and it
// names every event a mutating RPC declares.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { getOption } from '@bufbuild/protobuf';
import { withGenerated } from '../../src/core/error-docs.js';
import { events } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { EVENTS_BEGIN, EVENTS_END, renderEventTable } from '../../src/server/event-type-docs.js';
import { SERVICES } from '../../src/server/services.js';
import { methodName, mutatingMethods } from '../harness/mutating-methods.js';

/** The descriptors of the services the server serves. */
const SERVED = SERVICES.map((e) => e.service);

const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'event-types.md'), 'utf8');

describe('docs/event-types.md', () => {
  it('lists exactly the events the served services declare', () => {
    const table = renderEventTable(SERVED);
    assert.ok(doc.includes(EVENTS_BEGIN), 'docs/event-types.md has the generated table');
    assert.equal(withGenerated(doc, table, EVENTS_BEGIN, EVENTS_END), doc, 'docs/event-types.md is out of date: run npm run docs');
    for (const m of mutatingMethods(SERVED)) {
      const e = getOption(m, events);
      if (e.type !== '') assert.ok(doc.includes(`| \`${e.type}\` | \`${methodName(m)}\` |`), `${methodName(m)} is listed`);
      else assert.ok(doc.includes(`\`${methodName(m)}\``), `${methodName(m)} is listed among those without an event`);
    }
  });
});
