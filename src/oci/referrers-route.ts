// GET /v2/<name>/referrers/<digest>?artifactType= — the manifests whose
// subject is the digest, as an OCI image index (an empty one when there are
// none, whether or not the subject exists), filtered by artifactType with
// `OCI-Filters-Applied: artifactType`. A free-tier token sees none: referrers
// are not what the free tags point to.
import { OCI_INDEX } from '../registry/content/media-types.js';
import { listReferrers } from '../registry/content/referrers.js';
import { digestParam } from './blob-routes.js';
import type { RegistryContext } from './registry-context.js';
import { existingRepo } from './repo-for-route.js';
import { DIGEST_PATTERN, NAME_PATTERN, type RepoRoute } from './route-table.js';

export function referrersRoute(ctx: RegistryContext): RepoRoute {
  const db = ctx.runtime.store.db;
  return {
    name: 'referrers',
    template: '/v2/{name}/referrers/{digest}',
    methods: ['GET'],
    path: new RegExp(`^/v2/(?<name>${NAME_PATTERN})/referrers/(?<digest>${DIGEST_PATTERN})$`),
    action: 'pull',
    async handle({ request, reply, params, access }) {
      const digest = digestParam(params.digest);
      const repoUid = existingRepo(access);
      const q = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
      const artifactType = q.get('artifactType') ?? undefined;
      const manifests = access.pullTags ? [] : await listReferrers(db, repoUid, digest.text, { artifactType });
      if (artifactType) reply.header('oci-filters-applied', 'artifactType');
      // A Buffer, not a string: Fastify would add "; charset=utf-8", and clients compare the type exactly.
      return reply
        .code(200)
        .header('content-type', OCI_INDEX)
        .send(Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests })));
    },
  };
}
