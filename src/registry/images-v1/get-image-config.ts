// v1 GetImageConfig: the "config" object of an image's config blob (OCI
// image spec: User, ExposedPorts, Env, Entrypoint, Cmd, Volumes, WorkingDir,
// Labels, StopSignal). For an index, the image of `arch` (amd64 by default,
// the image GetSize sizes); a single image answers for its own architecture
// or none named. The blob is read from the registry's blob store, at most
// 1 MiB; a config that is not an image config (an artifact's) answers empty.
import { buffer } from 'node:stream/consumers';
import { create } from '@bufbuild/protobuf';
import { ImageConfigSchema, type ImageConfig, type ImageConfigRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { MAX_CONFIG_READ } from '../content/config-platform.js';
import { isObject, isPlatformWord } from '../content/descriptor.js';
import { parseDigest } from '../content/digest.js';
import { DEFAULT_ARCHITECTURE, imagePlatforms } from '../content/image-platforms.js';
import { architectureNotFound, badRegistryRequest, imageConfigUnavailable, imageNotFound } from '../errors.js';
import { checkImageRequest } from '../images/image-target.js';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const keys = (v: unknown): string[] => (isObject(v) ? Object.keys(v) : []);

/** The config object's fields as v1 names them; anything of another type is left out. */
export function imageConfigOf(doc: unknown): ImageConfig {
  const c = isObject(doc) && isObject(doc.config) ? doc.config : {};
  const labels = isObject(c.Labels) ? Object.entries(c.Labels).filter((e): e is [string, string] => typeof e[1] === 'string') : [];
  return create(ImageConfigSchema, {
    user: text(c.User),
    exposedPorts: Object.fromEntries(keys(c.ExposedPorts).map((k) => [k, {}])),
    env: strings(c.Env),
    entrypoint: strings(c.Entrypoint),
    cmd: strings(c.Cmd),
    volumes: Object.fromEntries(keys(c.Volumes).map((k) => [k, {}])),
    workingDir: text(c.WorkingDir),
    labels: Object.fromEntries(labels),
    stopSignal: text(c.StopSignal),
  });
}

/** The image manifest of `digest` the request means: itself, or the index's image of the architecture. */
async function imageOf(deps: ServiceDeps, req: ImageConfigRequest): Promise<string> {
  const images = await imagePlatforms(deps.store.db, req.repoId, req.digest);
  if (images === undefined) throw imageNotFound(req.repoId, req.digest);
  const single = images.length === 1 && images[0]!.digest === req.digest ? images[0] : undefined;
  if (single && (req.arch === '' || single.architecture === '' || single.architecture === req.arch)) return single.digest;
  const arch = req.arch === '' ? DEFAULT_ARCHITECTURE : req.arch;
  const chosen = images.find((i) => i.architecture === arch);
  if (!chosen) throw architectureNotFound(req.repoId, req.digest, arch);
  return chosen.digest;
}

export async function getImageConfig(deps: ServiceDeps, req: ImageConfigRequest): Promise<ImageConfig> {
  if (req.arch !== '' && !isPlatformWord(req.arch)) {
    throw badRegistryRequest([{ field: 'arch', description: 'arch must be a word of letters, digits, ".", "_", "+" or "-" (at most 64), e.g. amd64' }]);
  }
  await checkImageRequest(deps, { repoUid: req.repoId, digest: req.digest });
  const image = await imageOf(deps, req);
  const config = await deps.store.db
    .selectFrom('manifest_refs')
    .select(['child_digest', 'size'])
    .where('repo_uid', '=', req.repoId)
    .where('manifest_digest', '=', image)
    .where('kind', '=', 'blob')
    .where('position', '=', 0)
    .executeTakeFirst();
  if (!config) return create(ImageConfigSchema, {});
  if (!deps.blobs) throw imageConfigUnavailable(req.repoId, image, 'this server runs without a registry');
  if (Number(config.size) > MAX_CONFIG_READ) throw imageConfigUnavailable(req.repoId, image, `its config is larger than ${MAX_CONFIG_READ} bytes`);
  const stream = await deps.blobs.read(parseDigest(config.child_digest)!, { offset: 0, end: MAX_CONFIG_READ });
  if (!stream) throw imageConfigUnavailable(req.repoId, image, 'its config blob is not stored');
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await buffer(stream)));
  } catch {
    return create(ImageConfigSchema, {}); // an artifact's config, opaque to the registry
  }
  return imageConfigOf(doc);
}
