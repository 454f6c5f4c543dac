// One port, every protocol: REST over HTTP/1.1 and h2c, gRPC, gRPC-Web,
// Connect, and gRPC server reflection.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { describe, it } from 'node:test';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { PingService } from '../../src/gen/berth/ping/v2/ping_pb.js';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { ServerReflection } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

describe('protocols on one port', () => {
  let berth: Berth;
  let token: string;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'proto-check' } });
  });

  const auth = () => [
    (next: Parameters<import('@connectrpc/connect').Interceptor>[0]) => async (req: Parameters<typeof next>[0]) => {
      req.header.set('authorization', `Bearer ${token}`);
      return next(req);
    },
  ];

  for (const [name, make] of [
    ['gRPC (HTTP/2)', () => createGrpcTransport({ baseUrl: berth.url, interceptors: auth() })],
    ['gRPC-Web (HTTP/1.1)', () => createGrpcWebTransport({ baseUrl: berth.url, httpVersion: '1.1', interceptors: auth() })],
    ['Connect (HTTP/1.1)', () => createConnectTransport({ baseUrl: berth.url, httpVersion: '1.1', interceptors: auth() })],
    ['Connect (HTTP/2)', () => createConnectTransport({ baseUrl: berth.url, httpVersion: '2', interceptors: auth() })],
  ] as const) {
    it(`answers ${name}`, async () => {
      const transport = make();
      assert.equal((await createClient(PingService, transport).ping({})).response, 'pong');
      const repos = await createClient(ReposService, transport).listRepos({ name: 'proto-check' });
      assert.equal(repos.repos.length, 1);
      assert.equal(repos.totalCount, 1n);
    });
  }

  it('answers REST over cleartext HTTP/2', async () => {
    const session = http2.connect(berth.url);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request({ ':path': '/registry/v2/repos?name=proto-check', authorization: `Bearer ${token}` });
        let data = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => (data += c));
        req.on('end', () => resolve(data));
        req.on('error', reject);
      });
      assert.equal(JSON.parse(body).totalCount, '1');
    } finally {
      session.close();
    }
  });

  it('serves gRPC reflection', async () => {
    const client = createClient(ServerReflection, createGrpcTransport({ baseUrl: berth.url }));
    async function* requests() {
      yield { host: '', messageRequest: { case: 'listServices' as const, value: '' } };
      yield { host: '', messageRequest: { case: 'fileContainingSymbol' as const, value: 'berth.registry.v2.ReposService' } };
      yield { host: '', messageRequest: { case: 'allExtensionNumbersOfType' as const, value: 'google.protobuf.MethodOptions' } };
      yield {
        host: '',
        messageRequest: { case: 'fileContainingExtension' as const, value: { containingType: 'google.protobuf.MethodOptions', extensionNumber: 72295728 } },
      };
    }
    const answers = [];
    for await (const res of client.serverReflectionInfo(requests())) answers.push(res);
    assert.equal(answers.length, 4);
    const numbers = answers[2].messageResponse.case === 'allExtensionNumbersResponse' ? answers[2].messageResponse.value.extensionNumber : [];
    assert.ok(numbers.includes(72295728) && numbers.includes(50001), `extension numbers ${numbers.join(',')}`);
    const extFiles = answers[3].messageResponse.case === 'fileDescriptorResponse' ? answers[3].messageResponse.value.fileDescriptorProto : [];
    assert.ok(extFiles.map((b) => fromBinary(FileDescriptorProtoSchema, b).name).includes('google/api/annotations.proto'));
    const services = answers[0].messageResponse.case === 'listServicesResponse' ? answers[0].messageResponse.value.service.map((s) => s.name) : [];
    for (const s of ['berth.iam.v2.GroupsService', 'berth.registry.v2.ReposService', 'berth.ping.v2.PingService']) assert.ok(services.includes(s), s);
    const files = answers[1].messageResponse.case === 'fileDescriptorResponse' ? answers[1].messageResponse.value.fileDescriptorProto : [];
    const names = files.map((b) => fromBinary(FileDescriptorProtoSchema, b).name);
    assert.ok(names.includes('berth/registry/v2/repos.proto'), names.join(','));
  });

  it('reports health', async () => {
    const r = await rest(berth.url, 'GET', '/healthz');
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'ok');
  });
});
