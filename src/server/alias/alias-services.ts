// Serves each Berth service also under its deployed names (issue 30). The
// alias descriptors are built at start from the very descriptors Berth serves
// (alias-descriptors.ts over deployed-names.ts): a copy of each file under the
// deployed package, service and method names, with Berth's messages, field
// numbers and JSON names unchanged. So a request to an alias procedure is
// byte for byte a request to Berth's: the listener rewrites its path
// (`/chainguard.platform.iam.v2beta1.GroupsService/CreateGroup` →
// `/berth.iam.v2.Groups/Create`) before routing, and the same guarded
// implementation, errors and events answer it. Routing by path rather than
// registering each alias as a second set of procedures keeps the router (and
// the process's heap) the size of Berth's own; reflection lists both names.
import { create, createFileRegistry, type DescFile, type DescService, type FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { type AliasTable, aliasFiles, deployedServiceNames } from './alias-descriptors.js';
import { DEPLOYED_METHOD_NAMES, DEPLOYED_PACKAGES, DEPLOYED_SERVICE_NAMES } from './deployed-names.js';

export const DEPLOYED_NAMES: AliasTable = { packages: DEPLOYED_PACKAGES, services: DEPLOYED_SERVICE_NAMES, methods: DEPLOYED_METHOD_NAMES };

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

/** Berth's files for `services` and their alias under the deployed names, as one registry. */
export function deployedAliasRegistry(services: readonly DescService[]): FileRegistry {
  const protos = withDeps(services.map((s) => s.file)).map((f) => f.proto);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [...protos, ...aliasFiles(protos, DEPLOYED_NAMES)] }));
}

export interface DeployedAliases {
  /** Every served service under each of its deployed names (for reflection). */
  services: DescService[];
  /** `/alias.Service/Method` → `/berth.Service/Method`, for every method of every alias. */
  paths: ReadonlyMap<string, string>;
}

/** The deployed names of `served`, and the path of each alias method's Berth twin. */
export function deployedAliases(served: readonly DescService[]): DeployedAliases {
  const registry = deployedAliasRegistry(served);
  const services: DescService[] = [];
  const paths = new Map<string, string>();
  for (const s of served) {
    for (const name of deployedServiceNames(DEPLOYED_NAMES, s.typeName)) {
      const alias = registry.getService(name);
      if (!alias) throw new Error(`the alias of ${s.typeName} has no service ${name}`);
      services.push(alias);
      // The alias copies Berth's methods in order.
      alias.methods.forEach((m, i) => {
        paths.set(`/${alias.typeName}/${m.name}`, `/${s.typeName}/${s.methods[i].name}`);
      });
    }
  }
  return { services, paths };
}

/** The path of `url` under Berth's names when it names an alias method; `url` itself otherwise. */
export function berthPathOf(url: string, paths: ReadonlyMap<string, string>): string {
  if (!url.startsWith('/chainguard.')) return url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const to = paths.get(path);
  return to === undefined ? url : q < 0 ? to : to + url.slice(q);
}
