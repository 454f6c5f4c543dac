// `ORG/IMAGE[:TAG]`, as the registry addresses a repository: the organization
// (root group) name, the repo name inside it (which may itself hold "/"), and
// a tag (default "latest", as docker pull assumes). Checked here only enough
// to split it unambiguously; the API checks the names themselves.
export interface ImageReference {
  org: string;
  image: string;
  tag: string;
}

const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const MAX_REFERENCE = 512;

export function parseImageReference(text: string): ImageReference {
  const usage = 'give the image as ORG/IMAGE:TAG, e.g. acme/nginx:latest';
  if (text.length > MAX_REFERENCE || text.includes('\0')) throw new Error(`the image reference is not valid; ${usage}`);
  if (text.includes('@')) throw new Error(`a digest names one image and has no history; ${usage}`);
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) throw new Error(`${JSON.stringify(text)} names no organization; ${usage}`);
  const colon = text.lastIndexOf(':');
  const hasTag = colon > text.lastIndexOf('/');
  const tag = hasTag ? text.slice(colon + 1) : 'latest';
  const image = text.slice(slash + 1, hasTag ? colon : undefined);
  if (image === '') throw new Error(`${JSON.stringify(text)} names no image; ${usage}`);
  if (!TAG.test(tag)) throw new Error(`${JSON.stringify(tag)} is not a valid tag (^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$)`);
  return { org: text.slice(0, slash), image, tag };
}
