import { create } from '@bufbuild/protobuf';
import { TagSchema, type Tag } from '../../gen/berth/registry/v2/tags_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { TagsTable } from '../registry-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { tagNotFound } from '../errors.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';

const TAG_BY_UID = compiledQuery('tag by uid');

export function tagFromRow(row: TagsTable): Tag {
  return create(TagSchema, {
    uid: row.uid,
    name: row.name,
    digest: row.digest,
    deprecated: row.deprecated === 1,
    updateTime: isoToTimestamp(row.update_time),
  });
}

export async function loadTagRow(deps: Pick<ServiceDeps, 'store'>, uid: string): Promise<TagsTable> {
  const db = deps.store.db;
  const [row] = await runCompiled<TagsTable>(db, TAG_BY_UID, [uid], ([u]) =>
    db
      .selectFrom('tags')
      .selectAll()
      .where('uid', '=', u as string),
  );
  if (!row) throw tagNotFound(uid);
  return row;
}
