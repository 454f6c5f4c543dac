// The RPC guard authorizes unary calls only, so it serves nothing else: every
// streaming method of every served service is answered UNIMPLEMENTED by the
// guarded implementation, whatever the implementation would do. gRPC
// reflection (bidi) is served apart from the guard, public, and keeps working
// (test/api/protocols.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { create, createFileRegistry, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, file_google_protobuf_empty } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ServiceImpl } from '@connectrpc/connect';
import pino from 'pino';
import { ServerReflection } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { guard, type GuardDeps } from '../../src/server/rpc-guard.js';
import { SERVICES } from '../../src/server/services.js';

// No call below reaches authentication: a refused stream never authenticates.
const deps = { authenticator: undefined, logger: pino({ level: 'silent' }) } as unknown as GuardDeps;

/** A service with one method of each streaming kind. */
function streamingService(): DescService {
  const empty = '.google.protobuf.Empty';
  const file = create(FileDescriptorProtoSchema, {
    name: 'berth/test/streams.proto',
    package: 'berth.test.v1',
    dependency: ['google/protobuf/empty.proto'],
    syntax: 'proto3',
    service: [
      {
        name: 'StreamsService',
        method: [
          { name: 'Upload', inputType: empty, outputType: empty, clientStreaming: true },
          { name: 'Watch', inputType: empty, outputType: empty, serverStreaming: true },
          { name: 'Chat', inputType: empty, outputType: empty, clientStreaming: true, serverStreaming: true },
        ],
      },
    ],
  });
  const registry = createFileRegistry(file, (name) => (name === 'google/protobuf/empty.proto' ? file_google_protobuf_empty : undefined));
  const service = registry.getService('berth.test.v1.StreamsService');
  assert.ok(service);
  return service;
}

/** An implementation that would answer every method, and records whether it ran. */
function answeringImpl(service: DescService, ran: string[]): ServiceImpl<DescService> {
  const impl: Record<string, unknown> = {};
  for (const m of service.methods) {
    impl[m.localName] =
      m.methodKind === 'unary' || m.methodKind === 'client_streaming'
        ? async () => {
            ran.push(m.name);
            return create(m.output);
          }
        : async function* () {
            ran.push(m.name);
            yield create(m.output);
          };
  }
  return impl as ServiceImpl<DescService>;
}

/** The code a guarded streaming method answers with. */
async function codeOf(method: DescMethod, fn: unknown): Promise<Code | 'OK'> {
  const input = (async function* () {})();
  try {
    const out = (fn as (req: unknown, ctx: unknown) => unknown)(input, {});
    if (method.methodKind === 'client_streaming') await out;
    else for await (const _ of out as AsyncIterable<unknown>);
    return 'OK';
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

async function refusals(service: DescService): Promise<{ refused: string[]; ran: string[] }> {
  const ran: string[] = [];
  const guarded = guard(service, answeringImpl(service, ran), deps) as Record<string, unknown>;
  const refused: string[] = [];
  for (const m of service.methods) {
    if (m.methodKind === 'unary') continue;
    if ((await codeOf(m, guarded[m.localName])) === Code.Unimplemented) refused.push(m.name);
  }
  return { refused, ran };
}

describe('RPC guard and streaming methods', () => {
  it('refuses client, server and bidi streams with UNIMPLEMENTED, without running the implementation', async () => {
    const { refused, ran } = await refusals(streamingService());
    assert.deepEqual(refused, ['Upload', 'Watch', 'Chat']);
    assert.deepEqual(ran, []);
  });

  it('refuses reflection too when it is put behind the guard: it is served apart on purpose', async () => {
    const { refused, ran } = await refusals(ServerReflection);
    assert.deepEqual(refused, ['ServerReflectionInfo']);
    assert.deepEqual(ran, []);
  });

  it('refuses every streaming method of every served service', async () => {
    assert.ok(SERVICES.length >= 15);
    for (const { service } of SERVICES) {
      const streams = service.methods.filter((m) => m.methodKind !== 'unary').map((m) => m.name);
      const { refused, ran } = await refusals(service);
      assert.deepEqual(refused, streams, service.typeName);
      assert.deepEqual(ran, [], service.typeName);
    }
  });
});
