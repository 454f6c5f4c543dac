// berth advisories list|get: the v2 advisories the caller may see, with the
// API's filters as options (repeatable options become repeated query keys),
// in the usual output formats. Event types and review states are given as
// the API's enum names, their short forms (fixed, approved) or numbers.
import type { Command } from 'commander';
import { apiCommand, connect, uidPath, type ApiOptions } from './api-client.js';
import { listAll, MAX_ITEMS } from './list-all.js';
import { GROUP, resolveOptional } from './name-resolution.js';
import { printList, printOne, type Column } from './output.js';

interface AdvisoryEvent {
  createTime?: string;
  reviewState?: string;
  [oneofCase: string]: unknown;
}

interface Advisory {
  uid: string;
  advisoryId?: string;
  artifactName?: string;
  artifactArchitecture?: string;
  componentName?: string;
  aliases?: string[];
  events?: AdvisoryEvent[];
  updateTime?: string;
}

const EVENT_CASES = [
  'detection',
  'truePositiveDetermination',
  'fixed',
  'falsePositiveDetermination',
  'analysisNotPlanned',
  'fixNotPlanned',
  'pendingUpstreamFix',
  'patched',
];

/** The type of the newest approved event (what latestEventType filters on), '' when none. */
function latest(a: Advisory): string {
  const approved = (a.events ?? []).filter((e) => e.reviewState === 'REVIEW_STATE_APPROVED');
  const e = approved[approved.length - 1];
  return e ? (EVENT_CASES.find((c) => c in e) ?? '') : '';
}

const COLUMNS: readonly Column<Advisory>[] = [
  { header: 'UID', value: (a) => a.uid },
  { header: 'ADVISORY', value: (a) => a.advisoryId },
  { header: 'ARTIFACT', value: (a) => a.artifactName },
  { header: 'ARCH', value: (a) => a.artifactArchitecture },
  { header: 'COMPONENT', value: (a) => a.componentName },
  { header: 'ALIASES', value: (a) => (a.aliases ?? []).join(',') },
  { header: 'LATEST', value: latest },
  { header: 'UPDATED', value: (a) => a.updateTime },
];

/** "fixed", "FIXED", "false-positive-determination", "EVENT_TYPE_FILTER_FIXED" or "3" → the API's form. */
export function enumArgument(prefix: string, value: string): string {
  if (/^\d+$/.test(value)) return value;
  const name = value.toUpperCase().replace(/-/g, '_');
  return name.startsWith(prefix) ? name : `${prefix}${name}`;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface ListOptions extends ApiOptions {
  artifact?: string[];
  advisoryId?: string[];
  arch?: string[];
  component?: string[];
  componentType?: string[];
  alias?: string[];
  origin?: string;
  query?: string;
  eventType?: string[];
  latestEventType?: string;
  reviewState?: string[];
  author?: string[];
  reviewer?: string[];
  excludeAuthor?: string[];
  group?: string;
  orderBy?: string;
  limit?: string;
}

export function registerAdvisoryQueryCommands(advisories: Command): void {
  apiCommand(advisories, 'list', 'List the advisories you may see (all pages), filtered; values of one option OR, different options AND')
    .option('--artifact <name>', 'artifact (package) name; repeatable', collect)
    .option('--advisory-id <id>', 'CGA id; repeatable', collect)
    .option('--arch <arch>', 'artifact architecture (x86_64, aarch64); repeatable', collect)
    .option('--component <name>', 'component name; repeatable', collect)
    .option('--component-type <type>', 'component type (apk, go-module, python); repeatable', collect)
    .option('--alias <id>', 'CVE, GHSA or GO id; repeatable', collect)
    .option('--origin <package>', 'every advisory of the packages built from this origin package (--artifact is then ignored)')
    .option('--query <text>', 'case-insensitive substring of the artifact name, component name or an alias')
    .option('--event-type <type>', 'has an event of this type (detection, fixed, false-positive-determination, …); repeatable', collect)
    .option('--latest-event-type <type>', 'the newest approved event is of this type')
    .option('--review-state <state>', 'has an event in this review state (pending, approved, request-changes, rejected); repeatable', collect)
    .option('--author <who>', 'has an event by this author; repeatable', collect)
    .option('--reviewer <who>', 'has an event reviewed by this reviewer; repeatable', collect)
    .option('--exclude-author <who>', 'has no event by this author; repeatable', collect)
    .option('--group <group>', 'only advisories in this group and below (uid or name)')
    .option('--order-by <order>', 'uid, advisory_id, created_at or updated_at, then asc or desc (default "uid asc")')
    .option('--limit <n>', `at most this many advisories (default and maximum ${MAX_ITEMS})`)
    .addHelpText(
      'after',
      `
Examples:
  berth advisories list --artifact nginx --artifact glibc
  berth advisories list --alias CVE-2024-3094 -o json
  berth advisories list --query openssl --latest-event-type fixed
  berth advisories list --review-state pending --exclude-author import:yaml --group security-team`,
    )
    .action(async (o: ListOptions) => {
      const limit = o.limit === undefined ? MAX_ITEMS : Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ITEMS) throw new Error(`--limit must be 1 to ${MAX_ITEMS}`);
      const conn = await connect(o);
      const group = await resolveOptional(conn.client, GROUP, o.group);
      const items = await listAll<Advisory>(
        conn.client,
        'vulnerabilities/v2/advisories',
        'advisories',
        {
          artifactNames: o.artifact,
          advisoryIds: o.advisoryId,
          artifactArchitectures: o.arch,
          componentNames: o.component,
          componentTypes: o.componentType,
          aliases: o.alias,
          origin: o.origin,
          query: o.query,
          eventTypes: o.eventType?.map((t) => enumArgument('EVENT_TYPE_FILTER_', t)),
          latestEventType: o.latestEventType === undefined ? undefined : enumArgument('EVENT_TYPE_FILTER_', o.latestEventType),
          eventReviewStates: o.reviewState?.map((s) => enumArgument('REVIEW_STATE_', s)),
          eventAuthors: o.author,
          eventReviewers: o.reviewer,
          excludeEventAuthors: o.excludeAuthor,
          'uidp.descendantsOf': group,
          orderBy: o.orderBy,
        },
        limit,
      );
      printList(items, o.output, COLUMNS);
    });

  apiCommand(advisories, 'get <uid>', 'Show one advisory (-o json for its events and severities)')
    .addHelpText('after', '\nExample:\n  berth advisories get <uid> -o json')
    .action(async (uid: string, o: ApiOptions) => {
      const conn = await connect(o);
      printOne(await conn.client.call<Advisory>('GET', `vulnerabilities/v2/advisories/${uidPath(uid)}`), o.output, COLUMNS);
    });
}
