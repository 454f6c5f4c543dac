// Go build info (Go ≥ 1.18): the `\xff Go buildinf:` blob the linker puts at
// the start of the `.go.buildinfo` section, 16-byte aligned: a 32-byte header
// (pointer size, flags; flag 2 = strings inline) then two varint-prefixed
// strings, the Go version and the module info (`path`, `mod`, `dep`, `=>`
// lines, as runtime/debug.ParseBuildInfo reads them). Written by hand: no
// maintained npm package decodes it. The scanner looks for the blob as the
// file streams by, keeping only the blob (≤ MAX_BLOB bytes); the section is
// in the first part of the data segment, after text and read-only data, so
// a bound on the bytes searched (InventoryLimits.maxBinaryScanBytes) cuts
// only binaries whose code alone is larger.
import { PackageURL } from 'packageurl-js';
import type { InstalledPackage } from './inventory.js';

const MAGIC = Buffer.from('\xff Go buildinf:', 'latin1');
const HEADER = 32;
/** Bytes of one chunk kept for the next: a magic plus the two header bytes checked (16) less one. */
const TAIL = 15;
/** Bytes kept from the magic on: the version and module strings of a large program are well under this. */
const MAX_BLOB = 1024 * 1024;

export class GoBuildInfoScanner {
  private offset = 0;
  private tail = Buffer.alloc(0);
  private parts: Buffer[] | undefined;
  private kept = 0;

  constructor(private readonly maxScan: number) {}

  push(chunk: Buffer): void {
    if (this.parts) {
      if (this.kept < MAX_BLOB) this.keep(chunk);
      return;
    }
    if (this.offset >= this.maxScan) return;
    const within = chunk.length > this.maxScan - this.offset ? chunk.subarray(0, this.maxScan - this.offset) : chunk;
    // A magic across the chunk boundary is found in a small window; the chunk itself is searched in place, never copied.
    const window = this.tail.length > 0 ? Buffer.concat([this.tail, within.subarray(0, TAIL)]) : undefined;
    const inWindow = window ? find(window, this.offset - this.tail.length) : -1;
    const inChunk = inWindow >= 0 ? -1 : find(within, this.offset);
    if (inWindow >= 0) this.start(Buffer.concat([this.tail, chunk]).subarray(inWindow));
    else if (inChunk >= 0) this.start(chunk.subarray(inChunk));
    if (this.parts) return;
    this.offset += within.length;
    this.tail = Buffer.from(Buffer.concat([this.tail, within.subarray(Math.max(0, within.length - TAIL))]).subarray(-TAIL));
  }

  /** The bytes from the magic on, if it was found. */
  blob(): Buffer | undefined {
    return this.parts ? Buffer.concat(this.parts) : undefined;
  }

  // Kept from the whole chunk: the blob may run past the search bound.
  private start(from: Buffer): void {
    this.parts = [];
    this.keep(from);
  }

  private keep(chunk: Buffer): void {
    const part = chunk.subarray(0, MAX_BLOB - this.kept);
    this.parts?.push(Buffer.from(part));
    this.kept += part.length;
  }
}

/** The first blob start in `data` (at file offset `base`): aligned, and a header naming a pointer size; a stray copy of the magic (a program that reads build info) is neither. */
function find(data: Buffer, base: number): number {
  for (let i = data.indexOf(MAGIC); i >= 0; i = data.indexOf(MAGIC, i + 1)) {
    // A copy too near the end to check is found again, whole, in the next chunk's window.
    if ((base + i) % 16 !== 0 || i + 16 > data.length || !validHeader(data, i)) continue;
    return i;
  }
  return -1;
}

function validHeader(data: Buffer, i: number): boolean {
  const ptrSize = data[i + 14];
  return ptrSize === 4 || ptrSize === 8;
}

export interface GoBuildInfo {
  goVersion: string;
  modules: { path: string; version: string; main: boolean }[];
}

/** Decodes the blob; a string says why it cannot be. */
export function decodeGoBuildInfo(blob: Buffer): GoBuildInfo | string {
  if (blob.length < HEADER || !blob.subarray(0, MAGIC.length).equals(MAGIC)) return 'Go build info header is cut short';
  if ((blob[15] & 2) === 0) return 'Go build info of a release before Go 1.18 (strings by pointer) is not read';
  let at = HEADER;
  const str = (): string | undefined => {
    let len = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= blob.length) return undefined;
      const b = blob[at++];
      len += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (at + len > blob.length) return undefined;
        const s = blob.toString('utf8', at, at + len);
        at += len;
        return s;
      }
    }
    return undefined;
  };
  const goVersion = str();
  let mod = str();
  if (goVersion === undefined || mod === undefined) return `Go build info strings run past ${MAX_BLOB} bytes or the file`;
  // The module info is framed by 16-byte sentinels (runtime/debug's modinfo).
  if (mod.length >= 33 && mod[mod.length - 17] === '\n') mod = mod.slice(16, -16);
  return { goVersion, modules: parseModInfo(mod) };
}

function parseModInfo(mod: string): GoBuildInfo['modules'] {
  const modules: GoBuildInfo['modules'] = [];
  for (const line of mod.split('\n')) {
    const [kind, path, version] = line.split('\t');
    if ((kind === 'mod' || kind === 'dep') && path) modules.push({ path, version: version ?? '', main: kind === 'mod' });
    // A replacement stands for the module before it: what was built is the replacement, when it names a module version (not a directory).
    else if (kind === '=>' && modules.length > 0 && path && version) modules[modules.length - 1] = { ...modules[modules.length - 1], path, version };
  }
  return modules;
}

/** The packages of a binary: the standard library (`stdlib`, as Go's vulnerability database names it), the main module when versioned, its dependencies. */
export function goPackages(info: GoBuildInfo, location: string): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  const go = /^go(\d+\.\d+(?:\.\d+)?(?:(?:rc|beta)\d+)?)/.exec(info.goVersion);
  if (go) out.push(golang('stdlib', go[1], location));
  for (const m of info.modules) {
    if (m.version === '' || m.version === '(devel)') continue;
    out.push(golang(m.path, m.version, location));
  }
  return out.filter((p) => p.purl !== '');
}

function golang(modulePath: string, version: string, location: string): InstalledPackage {
  const slash = modulePath.lastIndexOf('/');
  const namespace = slash > 0 ? modulePath.slice(0, slash) : undefined;
  const name = slash > 0 ? modulePath.slice(slash + 1) : modulePath;
  let purl = '';
  try {
    purl = new PackageURL('golang', namespace, name, version).toString();
  } catch {
    // A path that makes no purl is dropped by the caller's filter.
  }
  const pkg: InstalledPackage = { type: 'golang', name, version, purl, locations: [location], foundBy: 'go-binary' };
  if (namespace) pkg.namespace = namespace;
  return pkg;
}
