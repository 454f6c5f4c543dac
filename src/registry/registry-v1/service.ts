import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listEolTags } from '../eol/list-eol-tags.js';
import { getArchs } from '../images-v1/get-archs.js';
import { getManifestDigestCount } from '../images-v1/digest-count.js';
import { getImageConfig } from '../images-v1/get-image-config.js';
import { getSizeV1 } from '../images-v1/get-size.js';
import { createRepoV1 } from '../repos-v1/create-repo.js';
import { deleteRepoV1 } from '../repos-v1/delete-repo.js';
import { listReposV1 } from '../repos-v1/list-repos.js';
import { updateRepoV1 } from '../repos-v1/update-repo.js';
import { createTagV1 } from '../tags-v1/create-tag.js';
import { deleteTagV1 } from '../tags-v1/delete-tag.js';
import { listTagsV1 } from '../tags-v1/list-tags.js';
import { getRepoTagsSummary } from '../tags-v1/repo-tags-summary.js';
import { updateTagV1 } from '../tags-v1/update-tag.js';
import { listTagHistory } from './list-tag-history.js';

/**
 * The registry's own v1 methods: the v1 shapes over the v2 repos, tags and
 * images code. The SBOM, package metadata and report ones are scanning's
 * (joined in src/server/services.ts).
 */
export function registryV1Service(
  deps: ServiceDeps,
): Omit<ServiceImpl<typeof RegistryService>, 'getSbom' | 'getRawSbom' | 'getVulnReport' | 'listManifestMetadata'> {
  return {
    createRepo: (req, ctx) => createRepoV1(deps, req, ctx),
    updateRepo: (req, ctx) => updateRepoV1(deps, req, ctx),
    listRepos: (req, ctx) => listReposV1(deps, req, ctx),
    deleteRepo: (req, ctx) => deleteRepoV1(deps, req, ctx),
    createTag: (req, ctx) => createTagV1(deps, req, ctx),
    updateTag: (req, ctx) => updateTagV1(deps, req, ctx),
    deleteTag: (req, ctx) => deleteTagV1(deps, req, ctx),
    listTags: (req, ctx) => listTagsV1(deps, req, ctx),
    getRepoTagsSummary: (req) => getRepoTagsSummary(deps, req),
    getImageConfig: (req) => getImageConfig(deps, req),
    getArchs: (req) => getArchs(deps, req),
    getSize: (req) => getSizeV1(deps, req),
    getManifestDigestCount: (req) => getManifestDigestCount(deps, req),
    listTagHistory: (req) => listTagHistory(deps, req),
    listEolTags: (req, ctx) => listEolTags(deps, req, ctx),
  };
}
