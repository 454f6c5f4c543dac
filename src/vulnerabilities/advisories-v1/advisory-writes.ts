// The advisory writes of the v1 API: Create, Update (replacing the artifact,
// component and aliases) and Delete (hard; its aliases and events go with
// it). Each runs in one transaction with its event; identity collisions in
// a group (same CGA id, artifact, architecture, component and location) are
// ALREADY_EXISTS, since the uid is derived from that identity, as the
// importer derives it.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { isValidUid, newChildUid } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import {
  AdvisorySchema as V1AdvisorySchema,
  DeleteAdvisoryRequestSchema,
  type Advisory as V1Advisory,
  type CreateAdvisoryRequest,
  type DeleteAdvisoryRequest,
} from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact, type Tx } from '../../store/transact.js';
import { advisoryUid, mintAdvisoryId } from '../advisory-ids.js';
import { forgetRanges } from '../affected/range-writer.js';
import { API_SOURCE, refreshLatestEventType, searchText, writeAliases } from '../advisory-rows.js';
import { eventsOf, loadAdvisoryRow, type AdvisoryRow } from '../advisories/advisory-read.js';
import { advisoryExists, advisoryGroupNotFound, advisoryNotFound, badAdvisoriesRequest, VULNERABILITIES_DOMAIN } from '../errors.js';
import { advisoryFields, advisoryIdOf, MAX_NAME, type AdvisoryFields } from './advisory-rules.js';
import { v1AdvisoryFromRow } from './v1-messages.js';

// An advisory's events are children of its uid: both must be valid uids.
const EVENT_SEGMENT = '/0000000000000000';

function fieldColumns(f: AdvisoryFields) {
  return {
    artifact_type: f.artifactType,
    artifact_name: f.artifactName,
    artifact_architecture: f.artifactArchitecture,
    component_name: f.componentName,
    component_type: f.componentType,
    component_location: f.componentLocation,
    aliases: JSON.stringify(f.aliases),
    search: searchText(f.artifactName, f.componentName, f.aliases),
  };
}

async function v1Of(tx: Tx, row: AdvisoryRow): Promise<V1Advisory> {
  return v1AdvisoryFromRow(row, (await eventsOf(tx, [row.uid])).get(row.uid) ?? []);
}

export async function createAdvisory(deps: ServiceDeps, req: CreateAdvisoryRequest, ctx: HandlerContext): Promise<V1Advisory> {
  const caller = callerOf(ctx, VULNERABILITIES_DOMAIN);
  const bad: FieldViolation[] = [];
  const a = req.advisory;
  if (!a) bad.push({ field: 'advisory', description: 'advisory is required' });
  const fields = advisoryFields(a, 'advisory', bad);
  let advisoryId = advisoryIdOf(a, 'advisory', fields.aliases, bad);
  const legacy = a?.legacyAdvisoryId;
  if (legacy !== undefined && (legacy.length > MAX_NAME || legacy === ''))
    bad.push({ field: 'advisory.legacy_advisory_id', description: `1 to ${MAX_NAME} characters when set` });
  if ((a?.events.length ?? 0) > 0)
    bad.push({ field: 'advisory.events', description: 'events are added with CreateAdvisoryEvent (POST …/advisories/{id}/events), which starts them PENDING' });
  // A random part: two creates without an id are two advisories.
  if (advisoryId === '') advisoryId = mintAdvisoryId(['api', newChildUid(req.parentId)]);
  const uid = advisoryUid(req.parentId, { advisoryId, ...fields });
  if (!isValidUid(uid + EVENT_SEGMENT)) bad.push({ field: 'parent_id', description: 'the group is nested too deeply to hold advisories' });
  if (bad.length > 0) throw badAdvisoriesRequest(bad);
  const now = nowIso();
  const row: AdvisoryRow = {
    uid,
    parent_uid: req.parentId,
    advisory_id: advisoryId,
    legacy_advisory_id: legacy ?? null,
    origin: fields.artifactName,
    package_namespace: '',
    author: caller.identityUid,
    ...fieldColumns(fields),
    latest_event_type: 0,
    source: API_SOURCE,
    source_file: '',
    create_time: now,
    update_time: now,
  };
  return transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parentId).executeTakeFirst();
    if (!group) throw advisoryGroupNotFound(req.parentId);
    const taken = await tx.selectFrom('advisories').select('uid').where('uid', '=', uid).executeTakeFirst();
    if (taken) throw advisoryExists(uid);
    await tx.insertInto('advisories').values(row).execute();
    await writeAliases(tx, uid, fields.aliases);
    const message = v1AdvisoryFromRow(row, []);
    await emitRpcEvent(tx, ctx, { group: req.parentId, subject: uid, schema: V1AdvisorySchema, message });
    return message;
  });
}

export async function updateAdvisory(deps: ServiceDeps, req: V1Advisory, ctx: HandlerContext): Promise<V1Advisory> {
  const bad: FieldViolation[] = [];
  const fields = advisoryFields(req, 'advisory', bad);
  if (bad.length > 0) throw badAdvisoriesRequest(bad);
  return transact(deps.store, async (tx) => {
    const before = await loadAdvisoryRow(tx, req.id);
    if (fields.aliases.includes(before.advisory_id))
      throw badAdvisoriesRequest([{ field: 'advisory.aliases', description: 'an alias must differ from the advisory id' }]);
    // Another advisory of the group with the identity this one would take.
    const other = advisoryUid(before.parent_uid, { advisoryId: before.advisory_id, ...fields });
    if (other !== before.uid && (await tx.selectFrom('advisories').select('uid').where('uid', '=', other).executeTakeFirst())) throw advisoryExists(other);
    const now = nowIso();
    const after: AdvisoryRow = {
      ...before,
      ...fieldColumns(fields),
      // API-made advisories are their own origin; imported ones keep their package's.
      origin: before.source === API_SOURCE ? fields.artifactName : before.origin,
      update_time: now > before.update_time ? now : before.update_time,
    };
    await tx
      .updateTable('advisories')
      .set({ ...fieldColumns(fields), origin: after.origin, update_time: after.update_time })
      .where('uid', '=', before.uid)
      .execute();
    await writeAliases(tx, before.uid, fields.aliases);
    after.latest_event_type = await refreshLatestEventType(tx, before.uid);
    const message = await v1Of(tx, after);
    await emitRpcEvent(tx, ctx, { group: before.parent_uid, subject: before.uid, schema: V1AdvisorySchema, message });
    return message;
  });
}

export async function deleteAdvisory(deps: ServiceDeps, req: DeleteAdvisoryRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const row = await loadAdvisoryRow(tx, req.id);
    await forgetRanges(tx, [row.uid]);
    await tx.deleteFrom('advisory_events').where('advisory_uid', '=', row.uid).execute();
    await tx.deleteFrom('advisory_aliases').where('advisory_uid', '=', row.uid).execute();
    const gone = await tx.deleteFrom('advisories').where('uid', '=', row.uid).executeTakeFirst();
    // A concurrent delete may have won since the read: only the one that removed the row emits.
    if (gone.numDeletedRows === 0n) throw advisoryNotFound(req.id);
    await emitRpcEvent(tx, ctx, {
      group: row.parent_uid,
      subject: row.uid,
      schema: DeleteAdvisoryRequestSchema,
      message: create(DeleteAdvisoryRequestSchema, { id: row.uid }),
    });
  });
  return {};
}
