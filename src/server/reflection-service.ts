// gRPC server reflection (v1 and v1alpha), answered from the descriptors the
// server was built with, so grpcurl and friends can list and call every RPC.
import { create, toBinary, type DescFile, type DescService, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import * as v1 from '../gen/grpc/reflection/v1/reflection_pb.js';
import * as v1alpha from '../gen/grpc/reflection/v1alpha/reflection_pb.js';

type Req = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

function withDeps(file: DescFile, seen: Set<string>, out: DescFile[]): void {
  if (seen.has(file.name)) return;
  seen.add(file.name);
  out.push(file);
  for (const dep of file.dependencies) withDeps(dep, seen, out);
}

function answer(services: readonly DescService[], registry: Registry, req: Req) {
  const files = (file: DescFile | undefined) => {
    if (!file) return { case: 'errorResponse' as const, value: { errorCode: 5, errorMessage: 'not found' } };
    const out: DescFile[] = [];
    withDeps(file, new Set(), out);
    return {
      case: 'fileDescriptorResponse' as const,
      value: { fileDescriptorProto: out.map((f) => toBinary(FileDescriptorProtoSchema, f.proto)) },
    };
  };
  const r = req.messageRequest;
  switch (r.case) {
    case 'listServices':
      return { case: 'listServicesResponse' as const, value: { service: services.map((s) => ({ name: s.typeName })) } };
    case 'fileContainingSymbol': {
      const name = r.value.replace(/^\./, '');
      const desc = registry.get(name) ?? registry.get(name.split('.').slice(0, -1).join('.'));
      return files(desc && 'file' in desc ? desc.file : undefined);
    }
    case 'fileByFilename': {
      for (const s of services) {
        const out: DescFile[] = [];
        withDeps(s.file, new Set(), out);
        const f = out.find((x) => x.name === r.value.replace(/\.proto$/, ''));
        if (f) return files(f);
      }
      return files(undefined);
    }
    case 'fileContainingExtension': {
      const target = registry.getMessage(r.value.containingType);
      const ext = target ? registry.getExtensionFor(target, r.value.extensionNumber) : undefined;
      return files(ext?.file);
    }
    case 'allExtensionNumbersOfType': {
      const numbers: number[] = [];
      for (const d of registry) if (d.kind === 'extension' && d.extendee.typeName === r.value) numbers.push(d.number);
      return { case: 'allExtensionNumbersResponse' as const, value: { baseTypeName: r.value, extensionNumber: numbers } };
    }
    default:
      return { case: 'errorResponse' as const, value: { errorCode: 3, errorMessage: 'empty reflection request' } };
  }
}

export function registerReflection(router: ConnectRouter, services: readonly DescService[], registry: Registry): void {
  for (const [mod, schema] of [
    [v1, v1.ServerReflectionResponseSchema],
    [v1alpha, v1alpha.ServerReflectionResponseSchema],
  ] as const) {
    router.service(mod.ServerReflection as typeof v1.ServerReflection, {
      async *serverReflectionInfo(requests: AsyncIterable<Req>) {
        for await (const req of requests) {
          yield create(schema as typeof v1.ServerReflectionResponseSchema, {
            validHost: req.host,
            originalRequest: req as v1.ServerReflectionRequest,
            messageResponse: answer(services, registry, req) as never,
          });
        }
      },
    });
  }
}
