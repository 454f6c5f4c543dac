// Pushes one file as an OCI referrer of an image through the registry
// protocol, as any client would: a registry token from /token (Basic
// `_token:<Berth token for the registry's audience>`, what
// docker-credential-berth hands docker), the subject resolved by HEAD, the
// empty config and the file pushed whole (POST ?digest=), then the manifest
// PUT by its digest. Used by `berth images scans import`.
import { createHash } from 'node:crypto';
import { reach } from './reach.js';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const EMPTY_CONFIG = { mediaType: 'application/vnd.oci.empty.v1+json', digest: `sha256:${sha256(Buffer.from('{}'))}`, size: 2 };
const ACCEPT = [
  OCI_MANIFEST,
  OCI_INDEX,
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
].join(', ');

export interface RegistryTarget {
  /** e.g. http://127.0.0.1:5000 */
  url: string;
  /** ORG/IMAGE as the registry names the repository. */
  name: string;
  /** A tag or a digest. */
  reference: string;
}

export interface Subject {
  mediaType: string;
  digest: string;
  size: number;
}

export interface ReferrerFile {
  artifactType: string;
  bytes: Uint8Array;
  title: string;
  created: string;
}

function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

async function registryError(what: string, res: Response): Promise<Error> {
  const text = await res.text().catch(() => '');
  let message = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { errors?: Array<{ code?: string; message?: string }> };
    if (body.errors?.[0]) message = `${body.errors[0].code ?? ''} ${body.errors[0].message ?? ''}`.trim();
  } catch {
    // not an OCI error body
  }
  return new Error(`${what}: the registry answered ${res.status}${message ? ` (${message})` : ''}`);
}

/** A registry token for pull and push on the repository. */
export async function registryToken(registryUrl: string, name: string, berthToken: string): Promise<string> {
  const url = new URL('/token', registryUrl);
  url.searchParams.set('scope', `repository:${name}:pull,push`);
  const res = await reach(registryUrl, url, { headers: { authorization: `Basic ${Buffer.from(`_token:${berthToken}`).toString('base64')}` } });
  if (!res.ok) throw await registryError('getting a registry token', res);
  const body = (await res.json()) as { token?: string; access_token?: string };
  const token = body.token ?? body.access_token;
  if (!token) throw new Error('getting a registry token: the answer held no token');
  return token;
}

export class RegistryPusher {
  constructor(
    private readonly target: RegistryTarget,
    private readonly token: string,
  ) {}

  private url(path: string): URL {
    return new URL(`/v2/${this.target.name}/${path}`, this.target.url);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, ...extra };
  }

  /** The image the reference names: its digest, media type and size. */
  async subject(): Promise<Subject> {
    const res = await reach(this.target.url, this.url(`manifests/${this.target.reference}`), { method: 'HEAD', headers: this.headers({ accept: ACCEPT }) });
    if (res.status === 404) throw new Error(`${this.target.name}:${this.target.reference} is not in the registry (push the image first)`);
    if (!res.ok) throw await registryError(`looking up ${this.target.name}:${this.target.reference}`, res);
    const digest = res.headers.get('docker-content-digest') ?? '';
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    const size = Number(res.headers.get('content-length'));
    if (!/^sha256:[0-9a-f]{64}$/.test(digest) || mediaType === '' || !Number.isSafeInteger(size))
      throw new Error('the registry did not describe the image (digest, type, size)');
    return { digest, mediaType, size };
  }

  private async pushBlob(bytes: Uint8Array): Promise<string> {
    const digest = `sha256:${sha256(bytes)}`;
    const head = await reach(this.target.url, this.url(`blobs/${digest}`), { method: 'HEAD', headers: this.headers() });
    if (head.ok) return digest;
    const url = this.url('blobs/uploads/');
    url.searchParams.set('digest', digest);
    const res = await reach(this.target.url, url, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) }),
      body: bytes,
    });
    if (res.status !== 201) throw await registryError(`pushing blob ${digest}`, res);
    return digest;
  }

  /** Pushes the file as a referrer of `subject`; returns the referrer manifest's digest. */
  async pushReferrer(subject: Subject, file: ReferrerFile): Promise<string> {
    await this.pushBlob(Buffer.from('{}'));
    const layerDigest = await this.pushBlob(file.bytes);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        artifactType: file.artifactType,
        config: EMPTY_CONFIG,
        layers: [
          { mediaType: file.artifactType, digest: layerDigest, size: file.bytes.byteLength, annotations: { 'org.opencontainers.image.title': file.title } },
        ],
        subject,
        annotations: { 'org.opencontainers.image.created': file.created },
      }),
    );
    const digest = `sha256:${sha256(manifest)}`;
    const res = await reach(this.target.url, this.url(`manifests/${digest}`), {
      method: 'PUT',
      headers: this.headers({ 'content-type': OCI_MANIFEST }),
      body: manifest,
    });
    if (res.status !== 201) throw await registryError('pushing the referrer manifest', res);
    return digest;
  }
}
