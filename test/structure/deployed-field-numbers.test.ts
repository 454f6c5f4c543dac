// The alias under the deployed names (issue 30) keeps the deployed field
// numbers and types: every message of the alias the server builds is compared
// with the table of deployed fields in test/fixtures (facts from the
// reference, §2), so a renumbering, a retyped field or a field on a number the
// deployed API uses for something else fails here. The committed client
// (src/gen/chainguard) must describe the same messages as the server's alias.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type DescField, type DescFile, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { deployedAliasRegistry } from '../../src/server/alias/alias-services.js';
import { SERVICES } from '../../src/server/services.js';

interface Fixture {
  messages: Record<string, Record<string, Record<string, string>>>;
  notInReference: Record<string, string[]>;
}
const FIXTURE: Fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'deployed-field-numbers.json'), 'utf8'));
const REGISTRY = deployedAliasRegistry(SERVICES.map((s) => s.service));
const ALIAS: DescMessage[] = [...REGISTRY].filter((d): d is DescMessage => d.kind === 'message' && d.typeName.startsWith('chainguard.'));

/** "repeated string", "map<string,int32>", "Timestamp": the table's notation, packages left out. */
function typeOf(f: DescField): string {
  const one = (kind: string, scalar?: ScalarType, e?: { name: string }, m?: { name: string }) =>
    kind === 'scalar' ? ScalarType[scalar as ScalarType].toLowerCase() : kind === 'enum' ? (e?.name ?? '') : (m?.name ?? '');
  if (f.fieldKind === 'list') return `repeated ${one(f.listKind, f.scalar, f.enum, f.message)}`;
  if (f.fieldKind === 'map') return `map<${ScalarType[f.mapKey].toLowerCase()},${one(f.mapKind, f.scalar, f.enum, f.message)}>`;
  return one(f.fieldKind, f.scalar, f.enum, f.message);
}
const normal = (t: string) => t.replace(/^optional /, '').replace(/(?:[A-Za-z_][A-Za-z0-9_]*\.)+(?=[A-Za-z_])/g, '');

/** The table's package for an alias package: v2beta1 is v2's twin. */
const tablePackage = (pkg: string) => pkg.replace(/\.v2beta1$/, '.v2');
const localName = (m: DescMessage) => m.typeName.slice(m.file.proto.package.length + 1);

describe('deployed field numbers', () => {
  it('every alias message field keeps the deployed number and type, and no field takes a deployed number of another', () => {
    const wrong: string[] = [];
    let compared = 0;
    for (const m of ALIAS) {
      const deployed = FIXTURE.messages[tablePackage(m.file.proto.package)]?.[localName(m)];
      if (!deployed) continue;
      const nameOfNumber = new Map(Object.entries(deployed).map(([name, v]) => [Number(v.split(' ')[0]), name]));
      for (const f of m.fields) {
        const d = deployed[f.name];
        const ours = `${f.number} ${typeOf(f)}`;
        compared++;
        if (d && normal(d.slice(d.indexOf(' ') + 1)) === normal(typeOf(f)) && Number(d.split(' ')[0]) === f.number) continue;
        if (!d && !nameOfNumber.has(f.number)) continue; // a field of Berth's own, on a number the deployed message leaves free
        wrong.push(`${m.typeName}.${f.name} is ${ours}; deployed ${d ?? `${nameOfNumber.get(f.number)} on ${f.number}`}`);
      }
    }
    assert.ok(compared > 300, `only ${compared} fields compared`);
    assert.deepEqual(wrong, []);
  });

  it('every alias message is in the table or listed as not described by the reference, and no listing is stale', () => {
    const unlisted: string[] = [];
    const seen = new Set<string>();
    for (const m of ALIAS) {
      const pkg = tablePackage(m.file.proto.package);
      const name = localName(m);
      seen.add(`${pkg}.${name}`);
      if (FIXTURE.messages[pkg]?.[name] || FIXTURE.notInReference[pkg]?.includes(name)) continue;
      unlisted.push(`${pkg}.${name}`);
    }
    assert.deepEqual(unlisted, [], 'add these to test/fixtures/deployed-field-numbers.json (messages, from the reference, or notInReference)');
    const stale = Object.entries(FIXTURE.notInReference).flatMap(([pkg, names]) => names.map((n) => `${pkg}.${n}`).filter((n) => !seen.has(n)));
    assert.deepEqual(stale, []);
  });

  it('serves the deployed service names of the reference, v2beta1 and v2 for the v2 domains', () => {
    const services = new Set([...REGISTRY].filter((d) => d.kind === 'service').map((d) => d.typeName));
    for (const name of [
      'chainguard.platform.iam.v2beta1.GroupsService',
      'chainguard.platform.iam.v2.GroupsService',
      'chainguard.platform.iam.v2beta1.AccountAssociationsService',
      'chainguard.platform.iam.Groups',
      'chainguard.platform.iam.GroupAccountAssociations',
      'chainguard.platform.iam.Terms',
      'chainguard.platform.registry.v2beta1.ReposService',
      'chainguard.platform.registry.v2.TagsService',
      'chainguard.platform.registry.Registry',
      'chainguard.platform.registry.Vulnerabilities',
      'chainguard.platform.events.Subscriptions',
      'chainguard.platform.events.v2.SubscriptionsService',
      'chainguard.platform.ping.PingService',
      'chainguard.platform.ping.v2beta1.PingService',
      'chainguard.platform.advisory.SecurityAdvisory',
      'chainguard.platform.advisory.v2.SecurityAdvisoryService',
      'chainguard.platform.vulnerabilities.v1.Advisories',
      'chainguard.platform.vulnerabilities.v2.AdvisoriesService',
    ])
      assert.ok(services.has(name), name);
    assert.equal(
      REGISTRY.getService('chainguard.platform.registry.Registry')?.methods.find((m) => m.name === 'CreateRepo')?.input.typeName,
      'chainguard.platform.registry.CreateRepoRequest',
    );
  });

  it('the committed client under src/gen/chainguard describes the messages the server serves', async () => {
    const root = join(import.meta.dirname, '..', '..', 'src', 'gen', 'chainguard');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const n of readdirSync(dir)) {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n.endsWith('_pb.js')) files.push(p);
      }
    };
    walk(root);
    assert.ok(files.length > 20, `only ${files.length} generated files`);
    const differ: string[] = [];
    for (const path of files) {
      for (const [key, value] of Object.entries(await import(path))) {
        if (!key.startsWith('file_')) continue;
        const visit = (m: DescMessage): void => {
          const served = REGISTRY.getMessage(m.typeName);
          const shape = (x: DescMessage | undefined) => x?.fields.map((f) => `${f.name}=${f.number} ${typeOf(f)}`).join('; ');
          if (shape(served) !== shape(m)) differ.push(m.typeName);
          m.nestedMessages.forEach(visit);
        };
        (value as DescFile).messages.forEach(visit);
      }
    }
    assert.deepEqual(differ, []);
  });
});
