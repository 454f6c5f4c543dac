// The access-control matrix: every RPC of every served service (iam, auth,
// events, registry, vulnerabilities, advisory, ping) × {owner, editor, viewer,
// registry.pull, no binding — each bound only at a subgroup of the first
// organization} × {in scope, out of scope (another organization)}, plus
// anonymous and the owner of another organization. The
// RPCs and what they require come from the proto's (berth.annotations.v1.iam)
// options and iam_scope fields, so a new RPC joins the matrix by itself.
//
// Requests are minimal and never aim at an existing resource: the scope uid is
// a well-formed, non-existent child of the group the callers are bound at (in
// scope) or of a group of another organization (out of scope). Once
// authorization passes, the answer is NotFound or InvalidArgument — never a
// write — so no RPC's success can change another's expectation.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { create, getOption, hasOption, type DescField, type DescMessage, type DescMethod, type DescService, type Message } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { iam, iam_scope } from '../../src/gen/berth/annotations/v1/annotations_pb.js';
import { Capability } from '../../src/gen/berth/capabilities/v1/capabilities_pb.js';
import { SERVICES } from '../../src/server/services.js';
import { useBerth } from '../harness/berth-process.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { seedImage } from '../harness/registry-content.js';

/** The descriptors of the services the server serves. */
const SERVED = SERVICES.map((e) => e.service);

const ROLES = ['owner', 'editor', 'viewer', 'registry.pull', 'no binding'] as const;
type RoleName = (typeof ROLES)[number];
const CONCURRENCY = 8;

/** One RPC and what its annotations say about it. */
interface Rpc {
  name: string;
  method: DescMethod;
  anonymous: boolean;
  unscoped: boolean;
  capabilities: readonly Capability[];
  /** The iam_scope field of the request, and the one inside it when it is a message. */
  scope?: { field: DescField; inner?: DescField };
  /** The request's UIDPFilter field, for lists. */
  uidp?: DescField;
}

function isScopeField(f: DescField): boolean {
  return hasOption(f, iam_scope) && getOption(f, iam_scope);
}

function rpcOf(method: DescMethod): Rpc {
  const name = `${method.parent.typeName}.${method.name}`;
  if (!hasOption(method, iam)) throw new Error(`${name} has no (berth.annotations.v1.iam) option`);
  const rule = getOption(method, iam);
  const enabled = rule.mode.case === 'enabled' ? rule.mode.value : undefined;
  const field = method.input.fields.find(isScopeField);
  let scope: Rpc['scope'];
  if (field) {
    const inner = field.fieldKind === 'message' ? field.message.fields.find(isScopeField) : undefined;
    if (field.fieldKind === 'message' && !inner) throw new Error(`${name}: ${field.message.typeName} has no iam_scope field`);
    scope = { field, inner };
  }
  const uidp = method.input.fields.find((f) => f.fieldKind === 'message' && f.message.typeName === 'berth.common.v2.UIDPFilter');
  return { name, method, anonymous: !enabled, unscoped: enabled?.unscoped ?? true, capabilities: enabled?.capabilities ?? [], scope, uidp };
}

/** The services the matrix covers: every served service. */
const COVERED: readonly DescService[] = SERVED;
const RPCS: Rpc[] = COVERED.flatMap((s) => s.methods.map(rpcOf));

/** A minimal request whose scope is `uid`: every other field left at its default. */
function requestAt(rpc: Rpc, uid: string): Message {
  const req = create(rpc.method.input) as unknown as Record<string, unknown>;
  if (rpc.scope) {
    const { field, inner } = rpc.scope;
    req[field.localName] = inner ? create(field.message as DescMessage, { [inner.localName]: uid } as never) : uid;
  }
  return req as unknown as Message;
}

/** A list request narrowed to what lies below `uid`. */
function listBelow(rpc: Rpc, uid: string): Message {
  const req = create(rpc.method.input) as unknown as Record<string, unknown>;
  const f = rpc.uidp!;
  req[f.localName] = create(f.message as DescMessage, { descendantsOf: uid } as never);
  return req as unknown as Message;
}

/** The uid of every item a list response holds (its repeated message fields; `id` in v1 shapes). */
function itemUids(rpc: Rpc, res: unknown): string[] {
  const out: string[] = [];
  for (const f of rpc.method.output.fields) {
    if (f.fieldKind !== 'list' || f.listKind !== 'message') continue;
    for (const item of (res as Record<string, Array<Record<string, unknown>>>)[f.localName]) out.push(String(item.uid ?? item.id));
  }
  return out;
}

const childOf = (uid: string) => `${uid}/${randomBytes(8).toString('hex')}`;
const below = (uid: string, ancestor: string) => uid === ancestor || uid.startsWith(`${ancestor}/`);

type Outcome = { code: Code | 'OK'; message: string; res?: unknown };
type Caller = (rpc: Rpc, req: Message) => Promise<Outcome>;

function callerWith(url: string, token: string | undefined): Caller {
  const transport = createGrpcTransport({ baseUrl: url });
  const clients = new Map<DescService, Record<string, (req: Message, opts: { headers: Record<string, string> }) => Promise<unknown>>>();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return async (rpc, req) => {
    const service = rpc.method.parent;
    if (!clients.has(service)) clients.set(service, createClient(service, transport) as never);
    try {
      const res = await clients.get(service)![rpc.method.localName](req, { headers });
      return { code: 'OK', message: '', res };
    } catch (err) {
      const ce = ConnectError.from(err);
      return { code: ce.code, message: ce.rawMessage.slice(0, 200) };
    }
  };
}

const codeName = (c: Code | 'OK') => (c === 'OK' ? 'OK' : Code[c]);

/** Runs `jobs` at most CONCURRENCY at a time. */
async function inBatches(jobs: Array<() => Promise<void>>): Promise<void> {
  for (let i = 0; i < jobs.length; i += CONCURRENCY) await Promise.all(jobs.slice(i, i + CONCURRENCY).map((j) => j()));
}

describe('access-control matrix (from the proto iam annotations)', () => {
  let setupOwner: Caller;
  /** The group of the first organization every role is bound at. */
  let inScope: string;
  /** The second organization and a group in it. */
  let otherOrg: string;
  let outScope: string;
  const callers = new Map<RoleName, Caller>();
  const held = new Map<RoleName, Set<Capability>>();
  let anonymous: Caller;
  /** The owner of the other organization, bound at its root: holds every capability, none of them in the first organization. */
  let stranger: Caller;

  useBerth(async (b, token) => {
    setupOwner = callerWith(b.url, token);
    anonymous = callerWith(b.url, undefined);
    const created = async (path: string, body: unknown) => {
      const r = await rest(b.url, 'POST', path, { token, body });
      if (r.status !== 200) throw new Error(`POST ${path}: ${r.text}`);
      return r.json;
    };
    const post = async (path: string, body: unknown) => (await created(path, body)).uid as string;
    inScope = await post(`/iam/v2/groups/${b.orgUid}`, { name: 'matrix-in-scope' });
    otherOrg = await post('/iam/v2/groups', { name: `matrix-other-${randomBytes(4).toString('hex')}` });
    outScope = await post(`/iam/v2/groups/${otherOrg}`, { name: 'matrix-out-of-scope' });

    // One of everything the IAM lists return, inside the other organization,
    // so a list that leaks across organizations has something to leak.
    const viewerRole = (await rest(b.url, 'GET', '/iam/v2/roles?name=viewer', { token })).json.roles[0].uid as string;
    await post(`/iam/v2/roles/${outScope}`, { name: 'matrix-other-role', capabilities: ['CAP_REPO_LIST'] });
    const other = await identityWithRole(b.url, token, otherOrg, 'viewer', outScope);
    assert.ok(other.uid.startsWith(otherOrg));
    await post(`/iam/v2/groupInvites/${outScope}`, { roleUid: viewerRole });
    await post(`/iam/v2/accountAssociations/${outScope}`, { name: 'matrix-other-accounts', amazon: { account: '123456789012' } });
    const idp = await post(`/iam/v2/identityProviders/${outScope}`, {
      name: 'matrix-other-idp',
      defaultRole: viewerRole,
      oidc: { issuer: 'https://idp.example.com', clientId: 'berth' },
    });
    await post(`/iam/v2/externalGroupRoleMappings/${idp}`, { externalGroupId: 'engineering', roleUid: viewerRole });
    await post(`/events/v2/subscriptions/${outScope}`, { sink: 'https://hooks.example.com/matrix-other' });
    const otherRepo = await post(`/registry/v2/repos/${outScope}`, { name: 'matrix-other-repo' });
    await post(`/registry/v2/tags/${otherRepo}`, { name: 'latest', digest: await seedImage(b, otherRepo) });
    const advisory = {
      artifactType: 'apk',
      artifactName: 'nginx',
      artifactArchitecture: 'x86_64',
      componentName: 'nginx',
      componentType: 'apk',
      componentLocation: './PKGINFO',
      aliases: ['CVE-2024-0001'],
    };
    await created('/vulnerabilities/v1/advisories', { parentId: outScope, advisory });
    stranger = callerWith(b.url, (await identityWithRole(b.url, token, otherOrg, 'owner', otherOrg)).token);

    // Tokens minted once per role; capabilities read from the server.
    await Promise.all(
      ROLES.map(async (role) => {
        const bound = role === 'no binding' ? undefined : role;
        const who = await identityWithRole(b.url, token, b.orgUid, bound, inScope);
        callers.set(role, callerWith(b.url, who.token));
        const caps = bound
          ? ((await rest(b.url, 'GET', `/iam/v2/roles?name=${encodeURIComponent(bound)}`, { token })).json.roles[0].capabilities as string[])
          : [];
        held.set(role, new Set(caps.map((c) => Capability[c as keyof typeof Capability])));
      }),
    );
  });

  it('covers every served service and every method of it', () => {
    for (const name of ['berth.registry.v2.ReposService', 'berth.vulnerabilities.v2.AdvisoriesService', 'berth.advisory.v2.SecurityAdvisoryService'])
      assert.ok(
        COVERED.some((s) => s.typeName === name),
        name,
      );
    assert.ok(COVERED.some((s) => s.typeName === 'berth.iam.v2.GroupsService'));
    assert.ok(COVERED.some((s) => s.typeName === 'berth.events.v2.SubscriptionsService'));
    assert.ok(COVERED.some((s) => s.typeName === 'berth.events.v1.SubscriptionsService'));
    assert.ok(RPCS.length >= 70, `only ${RPCS.length} RPCs found`);
    for (const rpc of RPCS) {
      if (rpc.anonymous) continue;
      assert.ok(rpc.unscoped || rpc.scope, `${rpc.name} is scoped but its request has no iam_scope field`);
    }
  });

  for (const rpc of RPCS) {
    it(rpc.name, async () => {
      const failures: string[] = [];
      const expect = (who: string, where: string, got: Outcome, ok: boolean, want: string) => {
        if (!ok) failures.push(`${rpc.name} as ${who} ${where}: got ${codeName(got.code)} "${got.message}", want ${want}`);
      };
      const jobs: Array<() => Promise<void>> = [];

      jobs.push(async () => {
        const got = await anonymous(rpc, requestAt(rpc, childOf(inScope)));
        if (rpc.anonymous) expect('anonymous', 'in scope', got, got.code !== Code.Unauthenticated, 'not Unauthenticated');
        else expect('anonymous', 'in scope', got, got.code === Code.Unauthenticated, 'Unauthenticated');
      });

      for (const role of ROLES) {
        const call = callers.get(role)!;
        const authorized = rpc.capabilities.every((c) => held.get(role)!.has(c));
        if (rpc.scope) {
          // Scoped in the guard, or unscoped with a scope field the implementation checks itself.
          jobs.push(async () => {
            const got = await call(rpc, requestAt(rpc, childOf(inScope)));
            if (authorized) {
              expect(role, 'in scope', got, got.code !== Code.PermissionDenied && got.code !== Code.Unauthenticated, 'authorization to pass');
            } else expect(role, 'in scope', got, got.code === Code.PermissionDenied, 'PermissionDenied');
          });
          jobs.push(async () => {
            const got = await call(rpc, requestAt(rpc, childOf(outScope)));
            expect(role, 'out of scope', got, got.code === Code.PermissionDenied, 'PermissionDenied (permission before existence)');
          });
        } else if (rpc.uidp) {
          // A list narrows its results instead of refusing: never another organization's items.
          jobs.push(async () => {
            const got = await call(rpc, requestAt(rpc, ''));
            const leaked = got.code === 'OK' ? itemUids(rpc, got.res).filter((u) => below(u, otherOrg)) : [];
            expect(role, 'unfiltered', got, got.code === 'OK' && leaked.length === 0, `OK without other-organization items (leaked ${leaked.join(', ')})`);
          });
          jobs.push(async () => {
            const got = await call(rpc, listBelow(rpc, inScope));
            const outside = got.code === 'OK' ? itemUids(rpc, got.res).filter((u) => !below(u, inScope)) : [];
            expect(role, 'in scope', got, got.code === 'OK' && outside.length === 0, `OK with only in-scope items (got ${outside.join(', ')})`);
          });
          jobs.push(async () => {
            const got = await call(rpc, listBelow(rpc, otherOrg));
            const items = got.code === 'OK' ? itemUids(rpc, got.res) : [];
            expect(role, 'out of scope', got, got.code === 'OK' && items.length === 0, `OK and empty (got ${items.join(', ')})`);
          });
        } else {
          // Authenticated and unscoped with nothing to narrow (lookups, registration): any caller gets past authorization.
          jobs.push(async () => {
            const got = await call(rpc, requestAt(rpc, ''));
            expect(role, 'unscoped', got, got.code !== Code.PermissionDenied && got.code !== Code.Unauthenticated, 'authorization to pass');
          });
        }
      }

      // The other organization's owner reaches nothing of the first: refused where scoped, an empty list where narrowed.
      if (rpc.scope) {
        jobs.push(async () => {
          const got = await stranger(rpc, requestAt(rpc, childOf(inScope)));
          expect('another organization owner', 'in the first organization', got, got.code === Code.PermissionDenied, 'PermissionDenied');
        });
      } else if (rpc.uidp) {
        jobs.push(async () => {
          const got = await stranger(rpc, listBelow(rpc, inScope));
          const items = got.code === 'OK' ? itemUids(rpc, got.res) : [];
          expect(
            'another organization owner',
            'in the first organization',
            got,
            got.code === 'OK' && items.length === 0,
            `OK and empty (got ${items.join(', ')})`,
          );
        });
      }

      if (rpc.uidp && !rpc.scope) {
        // The out-of-scope list check can fail: the other organization's owner does see items there.
        jobs.push(async () => {
          const got = await setupOwner(rpc, listBelow(rpc, otherOrg));
          const items = got.code === 'OK' ? itemUids(rpc, got.res) : [];
          expect('the other organization owner', 'out of scope', got, items.length > 0, 'items (seed the other organization with one)');
        });
      }

      await inBatches(jobs);
      assert.deepEqual(failures, [], `\n${failures.join('\n')}`);
    });
  }
});
