// The leading comments of the protos, by full name ("berth.registry.v2.Repo",
// "berth.registry.v2.Repo.name", "berth.registry.v2.ReposService.GetRepo"),
// read from a FileDescriptorSet with source info (`buf build`, which
// `npm run docs` runs): the descriptors compiled into src/gen carry none.
// The source paths are descriptor.proto's field numbers: message_type 4,
// enum_type 5, service 6 in a file; field 2, nested_type 3, enum_type 4 in a
// message; value 2 in an enum; method 2 in a service.
import { fromBinary } from '@bufbuild/protobuf';
import { type DescriptorProto, type EnumDescriptorProto, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';

export type ProtoComments = ReadonlyMap<string, string>;

/** OpenAPI descriptions are CommonMark: "<name>" outside a code span would be taken for an HTML tag. */
function escapeAngles(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '\\<') : part))
    .join('`');
}

/** A comment as prose: one paragraph per blank line, lines joined. */
function prose(text: string): string {
  return escapeAngles(text)
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join(' '),
    )
    .filter((p) => p !== '')
    .join('\n\n');
}

export function protoComments(descriptorSet: Uint8Array): ProtoComments {
  const out = new Map<string, string>();
  for (const file of fromBinary(FileDescriptorSetSchema, descriptorSet).file) {
    const byPath = new Map<string, string>();
    for (const loc of file.sourceCodeInfo?.location ?? []) {
      if (loc.leadingComments) byPath.set(loc.path.join('.'), prose(loc.leadingComments));
    }
    const note = (name: string, path: number[]) => {
      const c = byPath.get(path.join('.'));
      if (c) out.set(name, c);
    };
    const enumType = (e: EnumDescriptorProto, scope: string, path: number[]) => {
      const name = `${scope}.${e.name}`;
      note(name, path);
      e.value.forEach((v, i) => {
        note(`${name}.${v.name}`, [...path, 2, i]);
      });
    };
    const message = (m: DescriptorProto, scope: string, path: number[]) => {
      const name = `${scope}.${m.name}`;
      note(name, path);
      m.field.forEach((f, i) => {
        note(`${name}.${f.name}`, [...path, 2, i]);
      });
      m.nestedType.forEach((n, i) => {
        message(n, name, [...path, 3, i]);
      });
      m.enumType.forEach((e, i) => {
        enumType(e, name, [...path, 4, i]);
      });
    };
    file.messageType.forEach((m, i) => {
      message(m, file.package, [4, i]);
    });
    file.enumType.forEach((e, i) => {
      enumType(e, file.package, [5, i]);
    });
    file.service.forEach((s, i) => {
      const name = `${file.package}.${s.name}`;
      note(name, [6, i]);
      s.method.forEach((m, j) => {
        note(`${name}.${m.name}`, [6, i, 2, j]);
      });
    });
  }
  return out;
}
