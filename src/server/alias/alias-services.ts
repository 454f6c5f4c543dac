// Serves each Berth service also under its deployed names (issue 30). The
// alias descriptors are built at start from the very descriptors Berth serves
// (alias-descriptors.ts over deployed-names.ts), and each alias method calls
// Berth's guarded implementation: a request decoded under the alias is
// re-read as Berth's message (same field numbers; deployed-only fields are
// dropped, as proto3 ignores unknown fields) and the answer is re-read as the
// alias's. The handler context names Berth's method, so events, the guard and
// errors behave exactly as under the berth.* name.
import {
  create,
  createFileRegistry,
  type DescFile,
  type DescMethod,
  type DescService,
  type FileRegistry,
  fromBinary,
  isMessage,
  type Message,
  toBinary,
} from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { type AliasTable, aliasFiles, deployedServiceNames } from './alias-descriptors.js';
import { DEPLOYED_METHOD_NAMES, DEPLOYED_PACKAGES, DEPLOYED_SERVICE_NAMES } from './deployed-names.js';

export const DEPLOYED_NAMES: AliasTable = { packages: DEPLOYED_PACKAGES, services: DEPLOYED_SERVICE_NAMES, methods: DEPLOYED_METHOD_NAMES };

export interface ServedService {
  service: DescService;
  impl: ServiceImpl<DescService>;
}

/** A file and everything it imports, each once, dependencies first. */
function withDeps(roots: readonly DescFile[]): DescFile[] {
  const seen = new Map<string, DescFile>();
  const add = (f: DescFile): void => {
    if (seen.has(f.name)) return;
    f.dependencies.forEach(add);
    seen.set(f.name, f);
  };
  roots.forEach(add);
  return [...seen.values()];
}

type Unary = (req: Message, ctx: HandlerContext) => Promise<Message>;

/** One alias method in front of Berth's: same implementation, guard and errors. */
function forward(alias: DescMethod, berth: DescMethod, fn: Unary): Unary {
  return async (req, ctx) => {
    const inner = fromBinary(berth.input, toBinary(alias.input, req, { writeUnknownFields: false }));
    const res = await fn(inner, { ...ctx, service: berth.parent, method: berth });
    const out = isMessage(res, berth.output) ? res : create(berth.output, res);
    return fromBinary(alias.output, toBinary(berth.output, out));
  };
}

function aliasImpl(alias: DescService, berth: DescService, impl: ServiceImpl<DescService>): ServiceImpl<DescService> {
  const out: Record<string, unknown> = {};
  alias.methods.forEach((m, i) => {
    const b = berth.methods[i]; // the alias copies Berth's methods in order
    const fn = (impl as Record<string, unknown>)[b.localName];
    if (typeof fn !== 'function') return;
    // Streaming methods are the guard's refusal, which never reads its request.
    out[m.localName] = m.methodKind === 'unary' ? forward(m, b, fn as Unary) : fn;
  });
  return out as ServiceImpl<DescService>;
}

/** Berth's files for `services` and their alias under the deployed names, as one registry. */
export function deployedAliasRegistry(services: readonly DescService[]): FileRegistry {
  const protos = withDeps(services.map((s) => s.file)).map((f) => f.proto);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [...protos, ...aliasFiles(protos, DEPLOYED_NAMES)] }));
}

/** Every served service under each of its deployed names, implemented by the served (guarded) implementation. */
export function deployedAliases(served: readonly ServedService[]): ServedService[] {
  const registry = deployedAliasRegistry(served.map((s) => s.service));
  const out: ServedService[] = [];
  for (const s of served) {
    for (const name of deployedServiceNames(DEPLOYED_NAMES, s.service.typeName)) {
      const alias = registry.getService(name);
      if (!alias) throw new Error(`the alias of ${s.service.typeName} has no service ${name}`);
      out.push({ service: alias, impl: aliasImpl(alias, s.service, s.impl) });
    }
  }
  return out;
}
