// v1 UpdateTag (PUT): the tag's digest and deprecated flag replaced. The
// name is the tag's identity within its repo (v2 has no rename either), so
// it must be the tag's own. The move is v2's create-or-move — the manifest
// must be in the repo, the history records it — and the event is the one
// this RPC declares (tag.updated).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { FieldViolation } from '../../core/api-error.js';
import type { Tag } from '../../gen/berth/registry/v1/registry_pb.js';
import { CreateTagRequestSchema } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest } from '../errors.js';
import { digestViolation } from '../names.js';
import { createTag } from '../tags/create-tag.js';
import { loadTagRow } from '../tags/tag-row.js';
import { v1TagFromV2 } from './tag-v1.js';

export async function updateTagV1(deps: ServiceDeps, req: Tag, ctx: HandlerContext): Promise<Tag> {
  const row = await loadTagRow(deps, req.id);
  const bad: FieldViolation[] = [];
  if (req.name !== row.name)
    bad.push({ field: 'name', description: `name must be the tag's own (${JSON.stringify(row.name)}); create a tag to give a digest another name` });
  const d = digestViolation(req.digest, 'digest');
  if (d) bad.push(d);
  if (bad.length > 0) throw badRegistryRequest(bad);
  const tag = { name: row.name, digest: req.digest, deprecated: req.deprecated };
  return v1TagFromV2(await createTag(deps, create(CreateTagRequestSchema, { parent: row.parent_uid, tag }), ctx));
}
