// Every change emits its event: each mutating method of every served service
// (any method whose HTTP rule is not a GET) declares the CloudEvent it writes
// (berth.annotations.v1.events), or `none: true` on purpose. Walked from the
// descriptors, so an RPC added without an event fails here. Reads declare none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getOption } from '@bufbuild/protobuf';
import { EventAttributes_Audience, events } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { SERVICES } from '../../src/server/services.js';
import { isMutating, methodName, mutatingMethods } from '../harness/mutating-methods.js';

/** The descriptors of the services the server serves. */
const SERVED = SERVICES.map((e) => e.service);

// "api.iam.group.created.v1", "registry.push.v1": the type after the namespace.
const TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+\.v[0-9]+$/;
const EXTENSION = /^[a-z0-9]{1,20}$/; // CloudEvents attribute names

describe('event annotations', () => {
  it('every mutating method of a served service declares its event or none: true', () => {
    const mutating = mutatingMethods(SERVED);
    // Guards against a walk that finds nothing and so passes.
    assert.ok(mutating.length >= 30, `only ${mutating.length} mutating methods found`);
    const missing = mutating.filter((m) => {
      const e = getOption(m, events);
      return (e.type === '') === !e.none; // neither, or both
    });
    assert.deepEqual(missing.map(methodName), [], 'declare option (berth.annotations.v1.events) = {type: …} or {none: true} on these');
  });

  it('declared events are well formed: a namespaced type, lower-case extensions, group on every customer event', () => {
    const bad: string[] = [];
    for (const m of mutatingMethods(SERVED)) {
      const e = getOption(m, events);
      if (e.none) {
        if (e.extensions.length > 0 || e.audience !== EventAttributes_Audience.INTERNAL) bad.push(`${methodName(m)}: none: true with other fields`);
        continue;
      }
      if (!TYPE.test(e.type)) bad.push(`${methodName(m)}: type ${JSON.stringify(e.type)}`);
      for (const x of e.extensions) if (!EXTENSION.test(x)) bad.push(`${methodName(m)}: extension ${JSON.stringify(x)}`);
      if (e.audience === EventAttributes_Audience.CUSTOMER && !e.extensions.includes('group'))
        bad.push(`${methodName(m)}: customer event without the group extension`);
    }
    assert.deepEqual(bad, []);
  });

  it('reads declare no event', () => {
    const reads = SERVED.flatMap((s) => s.methods.filter((m) => !isMutating(m)));
    assert.ok(reads.length >= 20);
    const declaring = reads.filter((m) => {
      const e = getOption(m, events);
      return e.type !== '' || e.none;
    });
    assert.deepEqual(declaring.map(methodName), []);
  });
});
