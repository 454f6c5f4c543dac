// For the garbage collection tests: runs `berth registry gc` as its own
// process against a running Berth's data directory and database (as an
// operator would), and pushes content over raw HTTP with a registry token —
// blobs without manifests, referrers, uploads left open — which skopeo cannot.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, type Berth } from './berth-process.js';
import { basic, cliToken, registryHost, tokenGet } from './registry-client.js';

export interface GcReport {
  dryRun: boolean;
  manifestsDeleted: number;
  linksRemoved: number;
  blobsDeleted: number;
  bytesFreed: number;
  uploadsCancelled: number;
  reposScanned: number;
  interrupted: boolean;
}

export interface GcRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `berth registry gc --data <its data> [--database <its db>] …args`. */
export function gcCli(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>, args: string[]): Promise<GcRun> {
  const all = [CLI, 'registry', 'gc', '--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : []), ...args];
  const env = { ...process.env };
  delete env.BERTH_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, all, { env, timeout: 300_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Runs gc with `-o json` and returns its report (failing the test if gc fails). */
export async function gc(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>, ...args: string[]): Promise<GcReport> {
  const r = await gcCli(berth, [...args, '-o', 'json']);
  assert.equal(r.code, 0, `gc failed:\n${r.stderr}`);
  return JSON.parse(r.stdout) as GcReport;
}

export const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Where the filesystem blob store keeps a blob's bytes. */
export function blobFile(berth: Pick<Berth, 'dataDir'>, digest: string): string {
  const hex = digest.split(':')[1];
  return join(berth.dataDir, 'registry', 'blobs', 'sha256', hex.slice(0, 2), hex);
}

export function blobFileExists(berth: Pick<Berth, 'dataDir'>, digest: string): boolean {
  return existsSync(blobFile(berth, digest));
}

/** A registry token with pull, push and delete on `<org>/<repo>` (the owner's organization by default), from the owner. */
export async function repoToken(berth: Berth, repo: string, org = berth.orgName): Promise<string> {
  const host = registryHost(berth);
  const t = await tokenGet(berth, [`repository:${org}/${repo}:pull,push,delete`], basic('_token', cliToken(berth, host).token));
  assert.equal(t.status, 200, t.text);
  return t.json.token as string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

/** A raw registry client for one repo. */
export class RepoClient {
  readonly name: string;

  constructor(
    private readonly berth: Berth,
    readonly repo: string,
    private readonly token: string,
    org = berth.orgName,
  ) {
    this.name = `${org}/${repo}`;
  }

  /** A client of `<org>/<repo>` with the owner's pull, push and delete. */
  static async open(berth: Berth, repo: string, org = berth.orgName): Promise<RepoClient> {
    return new RepoClient(berth, repo, await repoToken(berth, repo, org), org);
  }

  async send(method: string, path: string, body?: Uint8Array, headers: Record<string, string> = {}): Promise<Reply> {
    const res = await fetch(`${this.berth.registryUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
      body: body === undefined ? undefined : Buffer.from(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Pushes `bytes` as one blob (monolithic upload); its digest. */
  async pushBlob(bytes: Uint8Array = randomBytes(2000)): Promise<string> {
    const digest = sha256(bytes);
    const r = await this.send('POST', `/v2/${this.name}/blobs/uploads/?digest=${digest}`, bytes, { 'content-type': 'application/octet-stream' });
    assert.equal(r.status, 201, r.text);
    return digest;
  }

  async blobStatus(digest: string): Promise<number> {
    return (await this.send('HEAD', `/v2/${this.name}/blobs/${digest}`)).status;
  }

  /** Puts a manifest by tag or digest; its digest. */
  async putManifest(reference: string | undefined, body: unknown): Promise<string> {
    const bytes = Buffer.from(JSON.stringify(body));
    const digest = sha256(bytes);
    const mediaType = (body as { mediaType: string }).mediaType;
    const r = await this.send('PUT', `/v2/${this.name}/manifests/${reference ?? digest}`, bytes, { 'content-type': mediaType });
    assert.equal(r.status, 201, r.text);
    return digest;
  }

  async manifestStatus(reference: string): Promise<number> {
    return (await this.send('HEAD', `/v2/${this.name}/manifests/${reference}`, undefined, { accept: 'application/vnd.oci.image.manifest.v1+json' })).status;
  }

  async deleteTag(tag: string): Promise<void> {
    const r = await this.send('DELETE', `/v2/${this.name}/manifests/${tag}`);
    assert.equal(r.status, 202, r.text);
  }

  /** Starts an upload and sends `bytes` as its first chunk; the upload's path. */
  async openUpload(bytes: Uint8Array = randomBytes(300)): Promise<string> {
    const start = await this.send('POST', `/v2/${this.name}/blobs/uploads/`);
    assert.equal(start.status, 202, start.text);
    const location = start.headers.get('location') as string;
    const chunk = await this.send('PATCH', location, bytes, { 'content-type': 'application/octet-stream', 'content-range': `0-${bytes.length - 1}` });
    assert.equal(chunk.status, 202, chunk.text);
    return location;
  }

  async uploadStatus(location: string): Promise<number> {
    return (await this.send('GET', location)).status;
  }
}

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';

/** An image manifest over a config blob and layers already pushed (digest and size each). */
export function imageManifest(
  config: { digest: string; size: number },
  layers: { digest: string; size: number }[],
  subject?: { digest: string; size: number },
) {
  return {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    ...(subject ? { artifactType: 'application/vnd.example.signature' } : {}),
    config: { mediaType: subject ? OCI_EMPTY : 'application/vnd.oci.image.config.v1+json', ...config },
    layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...l })),
    ...(subject ? { subject: { mediaType: OCI_MANIFEST, ...subject } } : {}),
  };
}
