// GET /v2/<org>/<image…>/<history segment>/history/<tag>?start=&end= — the
// digests a tag pointed to, oldest first, at most 1000, as
// {"history":[{"updateTimestamp","digest"}]}. Needs pull; a free-tier token
// reaches only its tags. Unknown repository: NAME_UNKNOWN; a tag that never
// pointed anywhere: MANIFEST_UNKNOWN (both 404, after the permission check).
import { historyWindow } from './history-window.js';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { NAME_PATTERN, TAG_PATTERN, type RepoRoute } from './route-table.js';
import { historyOf, tagKnown } from '../registry/tags/tag-history.js';

export function tagHistoryRoute(ctx: RegistryContext): RepoRoute {
  return {
    name: 'tag history',
    template: `/v2/{name}/${ctx.config.historySegment}/history/{tag}`,
    methods: ['GET', 'HEAD'],
    path: new RegExp(`^/v2/(?<name>${NAME_PATTERN})/${ctx.config.historySegment}/history/(?<tag>${TAG_PATTERN})$`),
    action: 'pull',
    async handle({ request, reply, params, access }) {
      const { name, tag } = params;
      if (access.pullTags && !access.pullTags.includes(tag)) {
        throw new OciError('DENIED', `this token reaches only the tags ${access.pullTags.join(', ')} of ${name}`);
      }
      const q = request.url.indexOf('?');
      const window = historyWindow(q < 0 ? '' : request.url.slice(q + 1));
      const repoUid = access.target.repoUid;
      if (repoUid === undefined) throw new OciError('NAME_UNKNOWN', undefined, { name });
      const db = ctx.runtime.store.db;
      const records = await historyOf(db, repoUid, tag, window);
      if (records.length === 0 && !(await tagKnown(db, repoUid, tag))) throw new OciError('MANIFEST_UNKNOWN', `tag ${tag} is unknown`, { tag });
      const history = records.map((r) => ({ updateTimestamp: r.updateTime, digest: r.digest }));
      return reply.code(200).header('content-type', 'application/json').send(JSON.stringify({ history }));
    },
  };
}
