// GET /v2/<name>/tags/list?n=&last= — the repo's tag names in lexical order,
// `n` at a time after `last`, with a `Link: <…>; rel="next"` header while more
// follow. A free-tier token lists only its tags.
import { listTagNames, MAX_TAG_NAMES } from '../registry/tags/list-tag-names.js';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { existingRepo } from './repo-for-route.js';
import { NAME_PATTERN, type RepoRoute } from './route-table.js';

export function tagListRoute(ctx: RegistryContext): RepoRoute {
  const db = ctx.runtime.store.db;
  return {
    name: 'tag list',
    template: '/v2/{name}/tags/list',
    methods: ['GET'],
    path: new RegExp(`^/v2/(?<name>${NAME_PATTERN})/tags/list$`),
    action: 'pull',
    async handle({ request, reply, params, access }) {
      const { name } = params;
      const repoUid = existingRepo(access);
      const q = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
      const nText = q.get('n');
      if (nText !== null && !/^\d{1,9}$/.test(nText)) throw new OciError('REQUEST_INVALID', 'n must be a non-negative integer', { n: nText.slice(0, 20) });
      const n = nText === null ? MAX_TAG_NAMES : Math.min(Number(nText), MAX_TAG_NAMES);
      const last = q.get('last') ?? undefined;
      if (last !== undefined && last.length > 256) throw new OciError('REQUEST_INVALID', 'last is at most 256 characters');
      let page = await listTagNames(db, repoUid, n, last);
      if (access.pullTags) {
        const free = access.pullTags;
        page = { names: page.names.filter((t) => free.includes(t)), more: false };
      }
      if (page.more && page.names.length > 0) {
        const next = new URLSearchParams({ n: String(n), last: page.names[page.names.length - 1] });
        reply.header('link', `</v2/${name}/tags/list?${next}>; rel="next"`);
      }
      return reply
        .code(200)
        .header('content-type', 'application/json')
        .send(JSON.stringify({ name, tags: page.names }));
    },
  };
}
