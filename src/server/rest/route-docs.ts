// docs/api.md's route table, rendered from the services' google.api.http
// annotations: the contract is the only route table, and the docs follow it.
import type { DescService } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { iam } from '../../gen/berth/annotations/v1/annotations_pb.js';
import { http } from '../../gen/google/api/annotations_pb.js';
import type { HttpRule } from '../../gen/google/api/http_pb.js';

export const ROUTES_BEGIN = '<!-- generated from the protos (npm run docs): begin -->';
export const ROUTES_END = '<!-- generated from the protos: end -->';

function bindings(rule: HttpRule): string[] {
  const out: string[] = [];
  for (const r of [rule, ...rule.additionalBindings]) {
    const p = r.pattern;
    if (p.case === undefined) continue;
    const [method, path] = p.case === 'custom' ? [p.value.kind.toUpperCase(), p.value.path] : [p.case.toUpperCase(), p.value];
    out.push(`\`${method} ${path.replace(/\{([\w.]+)=\*\*\}/g, '{$1}')}\``);
  }
  return out;
}

export function renderRouteTable(services: readonly DescService[]): string {
  const out = [ROUTES_BEGIN, '', '| service (gRPC) | RPC | REST | authentication |', '|---|---|---|---|'];
  for (const s of services) {
    for (const m of s.methods) {
      const rest = hasOption(m, http) ? bindings(getOption(m, http)).join(', ') : '(gRPC only)';
      const rule = hasOption(m, iam) ? getOption(m, iam) : undefined;
      const auth = rule?.mode.case === 'enabled' ? 'bearer token' : 'none';
      out.push(`| \`${s.typeName}\` | ${m.name} | ${rest} | ${auth} |`);
    }
  }
  out.push('', ROUTES_END);
  return out.join('\n');
}
