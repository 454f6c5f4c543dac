// The descriptor alias: Berth's own file descriptors, copied under the
// deployed packages, service and method names of deployed-names.ts. Messages
// keep Berth's field numbers, types and options (the iam and http
// annotations ride along unchanged). Used twice: scripts/generate-alias.js
// feeds the result to protoc-gen-es (the committed client under
// src/gen/chainguard), and the server builds the same alias at start to serve
// it. No relative imports but type-only ones, so that script can load this
// file with Node's type stripping before anything is compiled.
import { clone } from '@bufbuild/protobuf';
import { type DescriptorProto, type FileDescriptorProto, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { PackageAlias } from './deployed-names.js';

export interface AliasTable {
  readonly packages: readonly PackageAlias[];
  readonly services: Readonly<Record<string, string>>;
  readonly methods: Readonly<Record<string, string>>;
}

/** "chainguard.platform.iam.v2beta1" → "v2beta1"; "" for a package without a version token. */
function versionOf(pkg: string): string {
  const last = pkg.slice(pkg.lastIndexOf('.') + 1);
  return /^v\d/.test(last) ? last : '';
}

/** The deployed package a file of `flavor` refers to for a Berth package: the same version token where there is a choice. */
function pick(targets: readonly string[], flavor: string): string {
  return targets.find((t) => flavor !== '' && versionOf(t) === flavor) ?? (targets.at(-1) as string);
}

/** "berth/iam/v1/groups.proto" under "chainguard.platform.iam" → "chainguard/platform/iam/v1/groups.proto". */
function fileNameOf(name: string, berthPkg: string, target: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dir = target.replaceAll('.', '/');
  return versionOf(target) === '' ? `${dir}/${versionOf(berthPkg) || 'v1'}/${base}` : `${dir}/${base}`;
}

/** The deployed full names of a Berth service, one per deployed package (empty when the package has no alias). */
export function deployedServiceNames(table: AliasTable, berthService: string): string[] {
  const dot = berthService.lastIndexOf('.');
  const pkg = berthService.slice(0, dot);
  const name = table.services[berthService] ?? berthService.slice(dot + 1);
  return (table.packages.find((p) => p.berth === pkg)?.deployed ?? []).map((t) => `${t}.${name}`);
}

/** The alias files for every file of `files` whose package has deployed names. */
export function aliasFiles(files: readonly FileDescriptorProto[], table: AliasTable): FileDescriptorProto[] {
  const targetsOf = new Map(table.packages.map((p) => [p.berth, p.deployed]));
  const packageOf = new Map(files.map((f) => [f.name, f.package]));
  const out: FileDescriptorProto[] = [];
  for (const file of files) {
    for (const target of targetsOf.get(file.package) ?? []) {
      const flavor = versionOf(target);
      const renameType = (typeName: string): string => {
        let best = '';
        for (const pkg of targetsOf.keys()) if (typeName.startsWith(`.${pkg}.`) && pkg.length > best.length) best = pkg;
        return best === '' ? typeName : `.${pick(targetsOf.get(best) ?? [], flavor)}${typeName.slice(best.length + 1)}`;
      };
      const a = clone(FileDescriptorProtoSchema, file);
      a.name = fileNameOf(file.name, file.package, target);
      a.package = target;
      a.dependency = a.dependency.map((d) => {
        const pkg = packageOf.get(d);
        const targets = pkg === undefined ? undefined : targetsOf.get(pkg);
        return pkg !== undefined && targets ? fileNameOf(d, pkg, pick(targets, flavor)) : d;
      });
      const renameMessage = (m: DescriptorProto): void => {
        for (const f of [...m.field, ...m.extension]) {
          if (f.typeName) f.typeName = renameType(f.typeName);
          if (f.extendee) f.extendee = renameType(f.extendee);
        }
        m.nestedType.forEach(renameMessage);
      };
      a.messageType.forEach(renameMessage);
      for (const x of a.extension) {
        if (x.typeName) x.typeName = renameType(x.typeName);
        if (x.extendee) x.extendee = renameType(x.extendee);
      }
      for (const s of a.service) {
        const berthName = `${file.package}.${s.name}`;
        for (const m of s.method) {
          m.name = table.methods[`${berthName}/${m.name}`] ?? m.name;
          m.inputType = renameType(m.inputType);
          m.outputType = renameType(m.outputType);
        }
        s.name = table.services[berthName] ?? s.name;
      }
      out.push(a);
    }
  }
  return out;
}
