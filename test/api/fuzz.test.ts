// A few thousand generated hostile requests — bad JSON, wrong types, NUL and
// huge strings, bad uids, page tokens and masks over every REST route, and
// malformed protobuf over Connect, gRPC and gRPC-Web, plus odd values through
// a typed gRPC client — from a fixed seed within a bounded time. None may get
// a server error (HTTP 5xx, a gRPC status that maps to one, or no answer), and
// the server must be healthy afterwards. A failure prints the seed, the
// classes of errors and the first offending requests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DescService } from '@bufbuild/protobuf';
import { create } from '@bufbuild/protobuf';
import { ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AccountAssociationsService } from '../../src/gen/berth/iam/v2/account_associations_pb.js';
import { AuthService } from '../../src/gen/berth/auth/v1/auth_pb.js';
import { GroupInvitesService } from '../../src/gen/berth/iam/v2/group_invites_pb.js';
import { GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { IdentitiesService } from '../../src/gen/berth/iam/v2/identities_pb.js';
import { PingService } from '../../src/gen/berth/ping/v2/ping_pb.js';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { RoleBindingsService } from '../../src/gen/berth/iam/v2/role_bindings_pb.js';
import { RolesService } from '../../src/gen/berth/iam/v2/roles_pb.js';
import { TagsService } from '../../src/gen/berth/registry/v2/tags_pb.js';
import { TermsService } from '../../src/gen/berth/iam/v2/terms_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { seedImage } from '../harness/registry-content.js';
import { Messages } from './fuzz/messages.js';
import { Random } from './fuzz/random.js';
import { RestRequests, routesOf, type FuzzRequest } from './fuzz/rest-requests.js';
import { RpcRequests } from './fuzz/rpc-requests.js';
import { GrpcSender, sendFetch, type Outcome } from './fuzz/send.js';

/** Fixed, so a failure repeats; BERTH_FUZZ_SEED explores other sequences. */
const SEED = Number(process.env.BERTH_FUZZ_SEED ?? 0xb3e7_2026);
const TOTAL = 3000;
const WORKERS = 8;
const BUDGET_MS = 90_000;
const SERVICES: DescService[] = [
  GroupsService,
  IdentitiesService,
  RolesService,
  RoleBindingsService,
  ReposService,
  TagsService,
  PingService,
  GroupInvitesService,
  AccountAssociationsService,
  TermsService,
  AuthService,
];
/** gRPC codes whose HTTP equivalent is a 5xx: UNKNOWN, DEADLINE_EXCEEDED, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS. */
const SERVER_FAULTS = new Set([2, 4, 12, 13, 14, 15]);

interface Offence {
  req: FuzzRequest;
  out: Outcome;
}

const isServerFault = (o: Outcome) => o.status === 0 || o.status >= 500 || (o.grpcStatus !== undefined && SERVER_FAULTS.has(o.grpcStatus));

/**
 * The 5xx answers a contract requires: REST's 501 UNIMPLEMENTED for an HTTP
 * method a path does not support (docs/errors.md; it carries an Allow header),
 * UNIMPLEMENTED for a compression the server does not offer (the Connect
 * and gRPC protocols require it, so that clients fall back), and for a live
 * check of an account association's cloud provider, which Berth does not make.
 */
function isRequiredAnswer({ req, out }: Offence): boolean {
  if ((out.status === 501 || out.grpcStatus === 12) && out.text.includes('Berth does not check')) return true;
  if (req.protocol === 'rest' && out.status === 501) return /^\{"code":12,"message":"Unimplemented: \w+ is not supported on this path/.test(out.text);
  return (out.status === 501 || out.grpcStatus === 12) && out.text.includes('unknown compression');
}

function snippet(body: FuzzRequest['body']): string {
  if (body === undefined) return '-';
  const text = typeof body === 'string' ? JSON.stringify(body.slice(0, 160)) : `0x${Buffer.from(body.subarray(0, 48)).toString('hex')}`;
  const size = typeof body === 'string' ? body.length : body.byteLength;
  return size > 160 ? `${text}… (${size} ${typeof body === 'string' ? 'chars' : 'bytes'})` : text;
}

function describeOffence({ req, out }: Offence): string {
  const grpc = out.grpcStatus === undefined ? '' : ` grpc-status ${out.grpcStatus}`;
  return `${req.protocol} ${req.method} ${req.path.slice(0, 200)} body=${snippet(req.body)} → ${out.status}${grpc} ${out.text.slice(0, 300)}`;
}

/** Groups offences that differ only in ids, numbers and detail. */
function classOf({ req, out }: Offence): string {
  const text = out.text
    .replace(/[0-9a-f]{16,}/g, '<hex>')
    .replace(/\d+/g, 'N')
    .slice(0, 100);
  return `${req.protocol} ${req.method} ${req.path
    .split('?')[0]
    .replace(/\/[0-9a-f]{16,}.*$/, '/…')
    .slice(0, 40)} → ${out.status}/${out.grpcStatus ?? '-'} ${text}`;
}

describe('fuzzing the API', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  /** Resources to aim at, a token with less power, and real page tokens to tamper with. */
  async function seed() {
    const org = berth.orgUid;
    const post = async (path: string, body: unknown) => {
      const r = await rest(berth.url, 'POST', path, { token, body });
      assert.equal(r.status, 200, r.text);
      return r.json.uid as string;
    };
    const repo = await post(`/registry/v2/repos/${org}`, { name: 'fuzz-repo' });
    const known = [
      org,
      await post(`/iam/v2/groups/${org}`, { name: 'fuzz-group' }),
      repo,
      await post(`/registry/v2/repos/${org}`, { name: 'fuzz-repo-2' }),
      await post(`/registry/v2/tags/${repo}`, { name: 'latest', digest: await seedImage(berth, repo) }),
      await post(`/registry/v2/tags/${repo}`, { name: 'stable', digest: await seedImage(berth, repo) }),
      await post(`/iam/v2/roles/${org}`, { name: 'fuzz-role', capabilities: ['CAP_REPO_LIST'] }),
      '63921b2c44617e3f2603851537be0123af4a57d7',
    ];
    const invite = await rest(berth.url, 'POST', `/iam/v2/groupInvites/${org}`, { token, body: { roleUid: '63921b2c44617e3f2603851537be0123af4a57d7' } });
    assert.equal(invite.status, 200, invite.text);
    known.push(invite.json.uid);
    const aa = await rest(berth.url, 'POST', `/iam/v2/accountAssociations/${org}`, { token, body: { name: 'fuzz', amazon: { account: '123456789012' } } });
    assert.equal(aa.status, 200, aa.text);
    const viewer = await identityWithRole(berth.url, token, org, 'viewer', org);
    known.push(viewer.uid, berth.ownerIdentity);
    const bindings = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(viewer.uid)}`, { token });
    known.push(bindings.json.roleBindings[0].uid);
    const pageTokens: string[] = [];
    for (const route of routesOf(SERVICES)) {
      if (route.httpMethod !== 'GET' || route.path.includes('{')) continue;
      const r = await rest(berth.url, 'GET', `${route.path}?page_size=1`, { token });
      if (typeof r.json?.nextPageToken === 'string' && r.json.nextPageToken) pageTokens.push(r.json.nextPageToken);
    }
    assert.ok(pageTokens.length >= 4, `page tokens: ${pageTokens.length}`);
    return { known, viewerToken: viewer.token, pageTokens };
  }

  it('answers thousands of hostile requests without a server error and stays healthy', { timeout: 300_000 }, async (t) => {
    const { known, viewerToken, pageTokens } = await seed();
    const r = new Random(SEED);
    const auth = (): Record<string, string> => {
      const x = r.next();
      if (x < 0.8) return { authorization: `Bearer ${token}` };
      if (x < 0.87) return { authorization: `Bearer ${viewerToken}` };
      if (x < 0.95) return {};
      return { authorization: r.pick(['Bearer garbage', `Bearer ${token.slice(0, -4)}AAAA`, 'Basic eDp5', 'Bearer ']) };
    };
    const messages = new Messages(r, () => known);
    const restRequests = new RestRequests(
      r,
      messages,
      routesOf(SERVICES),
      auth,
      () => pageTokens,
      () => known,
    );
    const rpc = new RpcRequests(r, messages, SERVICES, auth);
    const grpc = new GrpcSender(berth.url);
    const transport = createGrpcTransport({ baseUrl: berth.url });
    const clients = new Map(
      SERVICES.map((s) => [
        s,
        createClient(s, transport) as unknown as Record<string, (m: unknown, o: { headers: Record<string, string> }) => Promise<unknown>>,
      ]),
    );

    /** The next request, made synchronously so the sequence depends on the seed alone. */
    const generate = (): [FuzzRequest, () => Promise<Outcome>] => {
      const x = r.next();
      if (x < 0.6) {
        const req = restRequests.next();
        return [req, () => sendFetch(berth.url, req)];
      }
      if (x < 0.75) {
        const req = rpc.connect();
        return [req, () => sendFetch(berth.url, req)];
      }
      if (x < 0.85) {
        const req = rpc.grpc('grpc');
        return [req, () => grpc.send(req)];
      }
      if (x < 0.9) {
        const req = rpc.grpc('grpc-web');
        return [req, () => sendFetch(berth.url, req)];
      }
      const m = r.pick(rpc.methods);
      const init = messages.typed(m.input);
      const headers = auth();
      const req: FuzzRequest = {
        protocol: 'grpc-typed',
        method: m.name,
        path: `/${m.parent.typeName}/${m.name}`,
        headers,
        body: JSON.stringify(init, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? `bytes(${v.length})` : v)),
      };
      return [
        req,
        async () => {
          try {
            await clients.get(m.parent)![m.localName](create(m.input, init as never), { headers });
            return { status: 200, grpcStatus: 0, text: '' };
          } catch (err) {
            const ce = ConnectError.from(err);
            return { status: 200, grpcStatus: ce.code, text: ce.rawMessage };
          }
        },
      ];
    };

    const offences: Offence[] = [];
    const outcomes = new Map<string, number>();
    const started = Date.now();
    let done = 0;
    const worker = async () => {
      while (done < TOTAL && Date.now() - started < BUDGET_MS) {
        done++;
        const [req, send] = generate();
        const out = await send();
        const key = `${req.protocol} ${out.status}${out.grpcStatus === undefined ? '' : `/${out.grpcStatus}`}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        if (isServerFault(out) && !isRequiredAnswer({ req, out })) offences.push({ req, out });
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    grpc.close();
    t.diagnostic(
      `${done} requests in ${Date.now() - started} ms (seed ${SEED}); outcomes: ${[...outcomes]
        .sort()
        .map(([k, n]) => `${k}×${n}`)
        .join(', ')}`,
    );

    const classes = new Map<string, number>();
    for (const o of offences) classes.set(classOf(o), (classes.get(classOf(o)) ?? 0) + 1);
    assert.equal(
      offences.length,
      0,
      `${offences.length} of ${done} requests got a server error (seed ${SEED}).\nClasses:\n${[...classes].map(([c, n]) => `  ${n}× ${c}`).join('\n')}\nFirst offences:\n${offences
        .slice(0, 20)
        .map((o) => `  ${describeOffence(o)}`)
        .join('\n')}`,
    );

    const health = await rest(berth.url, 'GET', '/healthz');
    assert.equal(health.status, 200, health.text);
    assert.equal(health.json.status, 'ok');
    const list = await rest(berth.url, 'GET', '/registry/v2/repos', { token });
    assert.equal(list.status, 200, list.text);
    const ping = (await createClient(PingService, createGrpcTransport({ baseUrl: berth.url })).ping({})) as { response: string };
    assert.equal(ping.response, 'pong');
  });
});
