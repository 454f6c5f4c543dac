// The methods of a set of services that change something: every method whose
// google.api.http rule is not a GET (a method with no rule at all counts too,
// so nothing slips through by lacking one). Read from the descriptors, so a
// new RPC is included the moment its proto is generated.
import { getOption, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { http } from '../../src/gen/google/api/annotations_pb.js';

export function isMutating(method: DescMethod): boolean {
  return getOption(method, http).pattern.case !== 'get';
}

export function mutatingMethods(services: readonly DescService[]): DescMethod[] {
  return services.flatMap((s) => s.methods.filter(isMutating));
}

/** "berth.iam.v2.GroupsService.CreateGroup" */
export function methodName(method: DescMethod): string {
  return `${method.parent.typeName}.${method.name}`;
}
