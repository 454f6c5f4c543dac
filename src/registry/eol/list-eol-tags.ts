// v1 ListEolTags: a page of tags (the list engine over `tags`, narrowed to the
// repos whose tags the caller may list), each with the lifecycle of its
// release stream. The stream data is global (imported by `berth eol import`);
// what a caller learns of it is only through tags it may list.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { isoToTimestamp, nowIso } from '../../core/clock.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { type EolTag, type EolTagFilter, type EolTagList, EolTagListSchema, EolTagSchema } from '../../gen/berth/registry/v1/registry_pb.js';
import { type Condition, equal } from '../../list/conditions.js';
import { type ListSpec, runList } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, REGISTRY_DOMAIN } from '../errors.js';
import type { TagsTable } from '../registry-tables.js';
import { notDate, notEpoch, notReferrer } from '../tags/tag-filters.js';
import { tagLifecycle } from './eol-rules.js';
import { hasMultipleTracks, imageNameOf, lastMoves, type ProductReleases, productsForImages, releasesOf } from './lifecycle-read.js';
import { streamOf } from './stream-match.js';

const SPEC: ListSpec = {
  table: 'tags',
  domain: REGISTRY_DOMAIN,
  columns: { uid: 'uid' },
  defaultOrder: { field: 'uid', desc: false },
};

export async function listEolTags(deps: ServiceDeps, req: EolTagFilter, ctx: HandlerContext): Promise<EolTagList> {
  if (req.pageSize < 0n || req.pageSize > 1_000_000n)
    throw badRegistryRequest([{ field: 'page_size', description: 'page_size is 0 to 1000000 (at most 200 are returned)' }]);
  const caller = callerOf(ctx, REGISTRY_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_TAG_LIST);
  const conditions: Condition[] = [notReferrer];
  if (req.name !== '') conditions.push(equal('name', req.name));
  if (req.excludeDates) conditions.push(notDate);
  if (req.excludeEpochs) conditions.push(notEpoch);
  const key = { eol: 1, n: req.name, dt: req.excludeDates, e: req.excludeEpochs };
  const page = await runList<TagsTable>(
    deps,
    SPEC,
    { uidp: req.uidp, pageSize: Number(req.pageSize), pageToken: req.pageToken, orderBy: '', skip: 0 },
    { conditions, key },
    visible,
    caller.tableVersions,
  );
  return create(EolTagListSchema, { items: await withLifecycle(deps, page.rows), nextPageToken: page.nextPageToken });
}

async function withLifecycle(deps: ServiceDeps, tags: readonly TagsTable[]): Promise<EolTag[]> {
  if (tags.length === 0) return [];
  const db = deps.store.db;
  const repoUids = [...new Set(tags.map((t) => t.parent_uid))];
  const repos = await db.selectFrom('repos').select(['uid', 'name']).where('uid', 'in', repoUids).execute();
  const imageOf = new Map(repos.map((r) => [r.uid, imageNameOf(r.name)]));
  const productOf = await productsForImages(db, [...new Set(imageOf.values())]);
  const products = await releasesOf(db, [...new Set(productOf.values())]);
  const moves = await lastMoves(db, tags);
  const now = Date.parse(nowIso());
  const repoProduct = (repoUid: string): ProductReleases | undefined => {
    const product = productOf.get(imageOf.get(repoUid) ?? '');
    return product === undefined ? undefined : products.get(product);
  };
  const tracks = new Map<string, boolean>();
  for (const uid of repoUids) {
    const p = repoProduct(uid);
    if (p) tracks.set(uid, await hasMultipleTracks(db, uid, p.releases));
  }
  return tags.map((t) => {
    const product = repoProduct(t.parent_uid);
    const stream = product ? streamOf(t.name, product.releases) : undefined;
    const life = tagLifecycle({
      stream: stream && { releaseDate: stream.release_date, eolDate: stream.eol_date, eol: stream.eol === 1 },
      multipleTracks: tracks.get(t.parent_uid) ?? false,
      lastMove: moves.get(`${t.parent_uid} ${t.name}`),
      now,
    });
    return create(EolTagSchema, {
      id: t.uid,
      name: t.name,
      mainPackageName: product?.name ?? '',
      tagStatus: life.tagStatus,
      graceStatus: life.graceStatus,
      gracePeriodExpiryDate: life.graceExpiry === '' ? undefined : isoToTimestamp(`${life.graceExpiry}T00:00:00.000Z`),
      mainPackageVersion: stream
        ? {
            version: stream.name,
            eolDate: stream.eol_date,
            releaseDate: stream.release_date,
            exists: true,
            fips: false,
            lts: stream.lts === 1,
            legacyLts: stream.lts_from,
            eolBroken: life.broken,
            latestVersion: stream.latest_version,
            versionSource: { ref: product!.sourceRef, sha: product!.sourceSha },
          }
        : { exists: false },
    });
  });
}
