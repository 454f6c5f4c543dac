// The filter oracle: a seeded feed imported through `berth advisories
// import` (into a group of its own), then events added and reviewed through
// the v1 API by several authors and reviewers, mirrored in an in-memory
// truth. Random combinations of every v2 filter (seeded) are compared with an
// in-memory filter over that truth, every page walked for several orders,
// totalCount checked on each page. Real server, SQLite or PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { advisoryUid } from '../../src/vulnerabilities/advisory-ids.js';
import { KIND_NAMES } from '../../src/vulnerabilities/event-kinds.js';
import { generateAdvisories, mulberry32, renderYaml } from '../harness/advisory-generator.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { sqlQuery } from '../harness/database.js';

const SEED = 20240611;
const STATES = ['', 'REVIEW_STATE_PENDING', 'REVIEW_STATE_APPROVED', 'REVIEW_STATE_REQUEST_CHANGES', 'REVIEW_STATE_REJECTED'];
const TYPES = [
  '',
  'EVENT_TYPE_FILTER_DETECTION',
  'EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION',
  'EVENT_TYPE_FILTER_FIXED',
  'EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION',
  'EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED',
  'EVENT_TYPE_FILTER_FIX_NOT_PLANNED',
  'EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX',
  'EVENT_TYPE_FILTER_PATCHED',
];

interface TruthEvent {
  uid: string;
  time: string;
  author: string;
  reviewer: string;
  state: number;
  type: number;
}

interface Truth {
  uid: string;
  advisoryId: string;
  legacyAdvisoryId?: string;
  origin: string;
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentType: string;
  componentLocation: string;
  aliases: string[];
  events: TruthEvent[];
  createTime: string;
  updateTime: string;
}

type Filter = Record<string, string[]>;

function latestType(t: Truth): number {
  const approved = t.events.filter((e) => e.state === 2).sort((a, b) => (a.time === b.time ? (a.uid < b.uid ? -1 : 1) : a.time < b.time ? -1 : 1));
  return approved.length === 0 ? 0 : approved[approved.length - 1].type;
}

/** The in-memory filter: the reference's semantics, written plainly. */
function matches(t: Truth, f: Filter): boolean {
  const any = (key: string, value: string | undefined) => !f[key] || f[key].includes(value ?? '\u0000none');
  const origin = f.origin?.[0];
  if (!any('advisoryIds', t.advisoryId)) return false;
  if (!any('legacyAdvisoryIds', t.legacyAdvisoryId)) return false;
  if (origin === undefined && !any('artifactNames', t.artifactName)) return false;
  if (origin !== undefined && t.origin !== origin) return false;
  if (!any('artifactTypes', t.artifactType)) return false;
  if (!any('artifactArchitectures', t.artifactArchitecture)) return false;
  if (!any('componentNames', t.componentName)) return false;
  if (!any('componentTypes', t.componentType)) return false;
  if (!any('componentLocations', t.componentLocation)) return false;
  if (f.aliases && !t.aliases.some((a) => f.aliases.includes(a))) return false;
  const stateOf = (v: string) => (/^\d+$/.test(v) ? Number(v) : STATES.indexOf(v));
  const typeOf = (v: string) => (/^\d+$/.test(v) ? Number(v) : TYPES.indexOf(v));
  if (f.eventReviewStates && !t.events.some((e) => f.eventReviewStates.map(stateOf).includes(e.state))) return false;
  if (f.eventTypes && !t.events.some((e) => f.eventTypes.map(typeOf).includes(e.type))) return false;
  if (f.eventAuthors && !t.events.some((e) => f.eventAuthors.includes(e.author))) return false;
  if (f.eventReviewers && !t.events.some((e) => f.eventReviewers.includes(e.reviewer))) return false;
  if (f.excludeEventAuthors && t.events.some((e) => f.excludeEventAuthors.includes(e.author))) return false;
  if (f.latestEventType && latestType(t) !== typeOf(f.latestEventType[0])) return false;
  if (f.query) {
    const q = f.query[0].toLowerCase();
    if (![t.artifactName, t.componentName, ...t.aliases].some((s) => s.toLowerCase().includes(q))) return false;
  }
  return true;
}

const ORDERS: Array<{ orderBy: string; key: (t: Truth) => string; desc: boolean }> = [
  { orderBy: '', key: (t) => t.uid, desc: false },
  { orderBy: 'uid desc', key: (t) => t.uid, desc: true },
  { orderBy: 'advisory_id', key: (t) => t.advisoryId, desc: false },
  { orderBy: 'advisory_id desc', key: (t) => t.advisoryId, desc: true },
  { orderBy: 'created_at desc', key: (t) => t.createTime, desc: true },
  { orderBy: 'updated_at asc', key: (t) => t.updateTime, desc: false },
];

function sorted(rows: Truth[], order: (typeof ORDERS)[number]): string[] {
  const cmp = (a: Truth, b: Truth) => {
    const ka = order.key(a);
    const kb = order.key(b);
    const c = ka === kb ? (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0) : ka < kb ? -1 : 1;
    return order.desc ? -c : c;
  };
  return [...rows].sort(cmp).map((t) => t.uid);
}

describe('advisories filter oracle', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  const api = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const ok = async (p: ReturnType<typeof api>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
    return r.json;
  };

  const truth = new Map<string, Truth>();
  const people: Array<{ uid: string; token: string }> = [];

  before(async () => {
    const feedGroup = (await ok(api('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'oracle-feed' }))).uid as string;
    const feed = generateAdvisories(SEED, { documents: 14, advisoriesPerDocument: 3 });
    const dir = mkdtempSync(join(tmpdir(), 'berth-oracle-'));
    for (const doc of feed.documents) writeFileSync(join(dir, `${doc.origin}.advisories.yaml`), renderYaml(doc));
    const where = berth.databaseUrl ? ['--database', berth.databaseUrl] : ['--data', berth.dataDir];
    const imported = await berthCli(['advisories', 'import', dir, '--group', feedGroup, ...where]);
    assert.equal(imported.code, 0, imported.stderr);
    for (const doc of feed.documents) {
      for (const a of doc.advisories) {
        const uid = advisoryUid(feedGroup, a);
        truth.set(uid, {
          uid,
          advisoryId: a.advisoryId,
          origin: a.origin,
          artifactName: a.artifactName,
          artifactType: a.artifactType,
          artifactArchitecture: a.artifactArchitecture,
          componentName: a.componentName,
          componentType: a.componentType,
          componentLocation: a.componentLocation,
          aliases: a.aliases,
          events: a.events.map((e, i) => ({
            uid: `imported-${i}`,
            time: e.time,
            author: e.author,
            reviewer: e.reviewer,
            state: 2,
            type: KIND_NAMES[e.kind].filter,
          })),
          createTime: '',
          updateTime: '',
        });
      }
    }
    // Legacy ids (no generated format carries one) on a few rows, set in the store and the truth.
    const rnd = mulberry32(SEED);
    const uids = [...truth.keys()].sort();
    for (let i = 0; i < uids.length; i += 5) {
      const legacy = `legacy-${i % 3}`;
      await sqlQuery(berth, 'update advisories set legacy_advisory_id = $1 where uid = $2', [legacy, uids[i]]);
      truth.get(uids[i])!.legacyAdvisoryId = legacy;
    }

    // Authors and reviewers: the owner and two reviewers (advisories.approve).
    await ok(
      api('POST', `/iam/v2/roles/${berth.orgUid}`, {
        name: 'oracle-reviewer',
        capabilities: ['CAP_ADVISORIES_LIST', 'CAP_ADVISORIES_CREATE', 'CAP_ADVISORIES_UPDATE', 'CAP_ADVISORIES_APPROVE'],
      }),
    );
    people.push({ uid: berth.ownerIdentity, token });
    for (let i = 0; i < 2; i++) people.push(await identityWithRole(berth.url, token, berth.orgUid, 'oracle-reviewer', berth.orgUid));
    const kinds = Object.keys(KIND_NAMES) as Array<keyof typeof KIND_NAMES>;
    for (const uid of uids) {
      if (rnd() < 0.4) continue;
      const n = 1 + Math.floor(rnd() * 2);
      for (let k = 0; k < n; k++) {
        const author = people[Math.floor(rnd() * people.length)];
        const kind = kinds[Math.floor(rnd() * kinds.length)];
        const body = {
          advisoryEvent: { [KIND_NAMES[kind].oneofCase]: kind === 'detection' ? { manual: {} } : kind === 'fixed' ? { fixedVersion: '1.0' } : {} },
        };
        const e = await ok(api('POST', `/vulnerabilities/v1/advisories/${uid}/events`, body, author.token));
        const ev: TruthEvent = { uid: e.id, time: e.timestamp, author: author.uid, reviewer: '', state: 1, type: KIND_NAMES[kind].filter };
        truth.get(uid)!.events.push(ev);
        const r = rnd();
        const others = people.filter((p) => p.uid !== author.uid);
        const reviewer = others[Math.floor(rnd() * others.length)];
        const status = r < 0.3 ? '' : r < 0.5 ? 'REQUEST_CHANGES' : r < 0.7 ? 'REJECTED' : 'APPROVED';
        if (status !== '') {
          await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status }, reviewer.token));
          ev.reviewer = reviewer.uid;
          ev.state = STATES.indexOf(`REVIEW_STATE_${status}`);
        }
      }
    }
    // Times as the server set them (ordering by created_at / updated_at), and a check that every row is there.
    let pageToken = '';
    let seen = 0;
    do {
      const page = await ok(api('GET', `/vulnerabilities/v2/advisories?pageSize=200&pageToken=${pageToken}`));
      for (const a of page.advisories) {
        const t = truth.get(a.uid);
        assert.ok(t, `unexpected advisory ${a.uid}`);
        t.createTime = a.createTime;
        t.updateTime = a.updateTime;
        seen++;
      }
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    assert.equal(seen, truth.size);
  });

  /** A random filter drawn from the truth (sometimes a value nothing has). */
  function randomFilter(rnd: () => number): Filter {
    const rows = [...truth.values()];
    const pickRow = () => rows[Math.floor(rnd() * rows.length)];
    const some = <T>(get: () => T, max = 3): T[] => Array.from({ length: 1 + Math.floor(rnd() * max) }, get);
    const maybeMissing = (v: string) => (rnd() < 0.1 ? `${v}-none` : v);
    const authors = [...people.map((p) => p.uid), 'import:yaml'];
    const gens: Record<string, () => string[]> = {
      advisoryIds: () => some(() => maybeMissing(pickRow().advisoryId)),
      legacyAdvisoryIds: () => some(() => `legacy-${Math.floor(rnd() * 4)}`),
      artifactNames: () => some(() => pickRow().artifactName),
      artifactTypes: () => [rnd() < 0.8 ? 'apk' : 'image'],
      artifactArchitectures: () => [rnd() < 0.8 ? 'x86_64' : 'aarch64'],
      componentNames: () => some(() => pickRow().componentName),
      componentTypes: () => some(() => pickRow().componentType),
      componentLocations: () => some(() => pickRow().componentLocation),
      aliases: () => some(() => pickRow().aliases[0] ?? 'CVE-2000-0001', 5),
      origin: () => [pickRow().origin],
      eventReviewStates: () => some(() => (rnd() < 0.5 ? STATES[1 + Math.floor(rnd() * 4)] : String(1 + Math.floor(rnd() * 4))), 2),
      eventAuthors: () => some(() => authors[Math.floor(rnd() * authors.length)], 2),
      eventReviewers: () => some(() => people[Math.floor(rnd() * people.length)].uid, 2),
      excludeEventAuthors: () => some(() => authors[Math.floor(rnd() * authors.length)], 2),
      eventTypes: () => some(() => (rnd() < 0.5 ? TYPES[1 + Math.floor(rnd() * 8)] : String(1 + Math.floor(rnd() * 8))), 3),
      latestEventType: () => [TYPES[1 + Math.floor(rnd() * 8)]],
      query: () => {
        const t = pickRow();
        const s = [t.artifactName, t.componentName, ...t.aliases][Math.floor(rnd() * (2 + t.aliases.length))];
        const from = Math.floor(rnd() * Math.max(1, s.length - 3));
        const q = s.slice(from, from + 2 + Math.floor(rnd() * 5));
        return [rnd() < 0.5 ? q.toUpperCase() : q];
      },
    };
    const keys = Object.keys(gens);
    const f: Filter = {};
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) {
      const k = keys[Math.floor(rnd() * keys.length)];
      f[k] = gens[k]();
    }
    return f;
  }

  const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

  it('every random filter combination lists exactly what the in-memory filter keeps, in order, on every page', async () => {
    const rnd = mulberry32(SEED + 1);
    let nonEmpty = 0;
    for (let round = 0; round < 60; round++) {
      const f = randomFilter(rnd);
      const order = ORDERS[round % ORDERS.length];
      const want = sorted(
        [...truth.values()].filter((t) => matches(t, f)),
        order,
      );
      if (want.length > 0) nonEmpty++;
      const q = new URLSearchParams();
      // Half the keys in snake_case: the API reads both.
      for (const [k, vs] of Object.entries(f)) for (const v of vs) q.append(rnd() < 0.5 ? snake(k) : k, v);
      if (order.orderBy) q.set('orderBy', order.orderBy);
      q.set('pageSize', String(1 + Math.floor(rnd() * 7)));
      const got: string[] = [];
      let token2 = '';
      for (let pages = 0; pages < 200; pages++) {
        if (token2) q.set('pageToken', token2);
        const page = await ok(api('GET', `/vulnerabilities/v2/advisories?${q}`));
        assert.equal(page.totalCount, String(want.length), `totalCount of ${q}`);
        got.push(...page.advisories.map((a: { uid: string }) => a.uid));
        token2 = page.nextPageToken;
        if (token2 === '') break;
      }
      assert.deepEqual(got, want, `${q}`);
    }
    // The draw must exercise the filters, not only empty answers.
    assert.ok(nonEmpty >= 20, `only ${nonEmpty} filters matched something`);
  });

  it('v1 List agrees with v2 for the filters both have', async () => {
    const rnd = mulberry32(SEED + 2);
    const rows = [...truth.values()];
    for (let round = 0; round < 10; round++) {
      const t = rows[Math.floor(rnd() * rows.length)];
      const author = people[Math.floor(rnd() * people.length)].uid;
      const v1 = await ok(api('GET', `/vulnerabilities/v1/advisories?artifactName=${t.artifactName}&pageSize=200`));
      const v2 = sorted(
        rows.filter((x) => matches(x, { artifactNames: [t.artifactName] })),
        ORDERS[0],
      );
      assert.deepEqual(
        v1.items.map((a: { id: string }) => a.id),
        v2,
      );
      const v1b = await ok(api('GET', `/vulnerabilities/v1/advisories?excludeEventAuthor=${author}&eventStatuses=PENDING&pageSize=200`));
      assert.deepEqual(
        v1b.items.map((a: { id: string }) => a.id),
        sorted(
          rows.filter((x) => matches(x, { excludeEventAuthors: [author], eventReviewStates: ['1'] })),
          ORDERS[0],
        ),
      );
    }
  });

  it('the curl tutorial step works as written', async () => {
    const t = [...truth.values()][0];
    const r = await ok(api('GET', `/vulnerabilities/v2/advisories?artifactNames=${encodeURIComponent(t.artifactName)}`));
    assert.ok(r.advisories.some((a: { uid: string }) => a.uid === t.uid));
  });
});
