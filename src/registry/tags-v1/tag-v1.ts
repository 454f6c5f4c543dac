// A tag as the v1 API shows it: id, name, digest, last_updated, deprecated.
import type { Tag } from '../../gen/berth/registry/v1/registry_pb.js';
import type { Tag as TagV2 } from '../../gen/berth/registry/v2/tags_pb.js';

export function v1TagFromV2(tag: TagV2): Tag {
  return { $typeName: 'berth.registry.v1.Tag', id: tag.uid, name: tag.name, digest: tag.digest, lastUpdated: tag.updateTime, deprecated: tag.deprecated };
}
