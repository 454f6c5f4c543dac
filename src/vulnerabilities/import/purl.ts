// Package URLs (pkg:type/namespace/name@version?qualifiers#subpath), as OSV
// and OpenVEX name packages: parsed just far enough to take an advisory's
// artifact (name, type, `arch` qualifier, version) or component from one,
// and written back by the test renderers. Plus the two vocabularies a purl
// type is translated into: artifact types and component types.

export interface Purl {
  type: string;
  namespace: string;
  name: string;
  version: string;
  qualifiers: Record<string, string>;
  subpath: string;
}

const TYPE = /^[a-z][a-z0-9.+-]*$/;

/** The purl, or undefined when `s` is not one. */
export function parsePurl(s: string): Purl | undefined {
  if (!s.startsWith('pkg:')) return undefined;
  let rest = s.slice(4).replace(/^\/+/, '');
  let subpath = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    subpath = rest
      .slice(hashAt + 1)
      .split('/')
      .filter((x) => x !== '' && x !== '.' && x !== '..')
      .map(decode)
      .join('/');
    rest = rest.slice(0, hashAt);
  }
  const qualifiers: Record<string, string> = {};
  const qAt = rest.indexOf('?');
  if (qAt >= 0) {
    for (const pair of rest.slice(qAt + 1).split('&')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      qualifiers[pair.slice(0, eq).toLowerCase()] = decode(pair.slice(eq + 1));
    }
    rest = rest.slice(0, qAt);
  }
  let version = '';
  const at = rest.lastIndexOf('@');
  if (at >= 0 && rest.indexOf('/') < at) {
    version = decode(rest.slice(at + 1));
    rest = rest.slice(0, at);
  }
  const parts = rest.split('/').filter((x) => x !== '');
  if (parts.length < 2) return undefined;
  const type = parts[0].toLowerCase();
  if (!TYPE.test(type)) return undefined;
  const name = decode(parts[parts.length - 1]);
  if (name === '') return undefined;
  return { type, namespace: parts.slice(1, -1).map(decode).join('/'), name, version, qualifiers, subpath };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function encode(s: string): string {
  return encodeURIComponent(s).replace(/%3A/gi, ':');
}

export function formatPurl(p: Purl): string {
  let s = `pkg:${p.type}/`;
  if (p.namespace) s += `${p.namespace.split('/').map(encode).join('/')}/`;
  s += encode(p.name);
  if (p.version) s += `@${encode(p.version)}`;
  const keys = Object.keys(p.qualifiers).sort();
  if (keys.length > 0) s += `?${keys.map((k) => `${k}=${encode(p.qualifiers[k])}`).join('&')}`;
  if (p.subpath) s += `#${p.subpath.split('/').map(encode).join('/')}`;
  return s;
}

// Language packages are "library" artifacts (the reference's artifactType
// words: apk, image, library); an OCI purl is an image; any other type is
// kept as it is.
const ARTIFACT_TYPES: Readonly<Record<string, string>> = {
  apk: 'apk',
  oci: 'image',
  pypi: 'library',
  maven: 'library',
  npm: 'library',
  golang: 'library',
  gem: 'library',
  cargo: 'library',
  nuget: 'library',
  composer: 'library',
};

export function artifactTypeOfPurl(purlType: string): string {
  return ARTIFACT_TYPES[purlType] ?? purlType;
}

// Component types are the scanner's (syft) words; purl types the ecosystem's.
// Both ways, so a component survives a round trip through a purl.
const COMPONENT_TYPES: ReadonlyArray<readonly [purlType: string, componentType: string]> = [
  ['golang', 'go-module'],
  ['pypi', 'python'],
  ['maven', 'java-archive'],
  ['cargo', 'rust-crate'],
  ['gem', 'gem'],
  ['npm', 'npm'],
  ['apk', 'apk'],
];

export function componentTypeOfPurl(purlType: string): string {
  return COMPONENT_TYPES.find(([p]) => p === purlType)?.[1] ?? purlType;
}

export function purlTypeOfComponent(componentType: string): string {
  return COMPONENT_TYPES.find(([, c]) => c === componentType)?.[0] ?? componentType;
}
