// Project name and version from a distribution's file name: a wheel is
// {name}-{version}(-{build})?-{python}-{abi}-{platform}.whl (PEP 427), an
// sdist {name}-{version}.tar.gz or .zip (PEP 625; older names may hold "-",
// so the version is the first valid PEP 440 tail).
import { isValidVersion } from '../../versions/compare-versions.js';

export type DistKind = 'wheel' | 'sdist';

export interface DistFile {
  kind: DistKind;
  name: string;
  version: string;
}

const SDIST = /\.(tar\.gz|tgz|zip|tar\.bz2)$/i;

export function isDistFileName(file: string): boolean {
  return file.toLowerCase().endsWith('.whl') || SDIST.test(file);
}

export function parseDistFileName(file: string): DistFile | undefined {
  if (file.toLowerCase().endsWith('.whl')) {
    const parts = file.slice(0, -4).split('-');
    if (parts.length !== 5 && parts.length !== 6) return undefined;
    if (!isValidVersion('pep440', parts[1])) return undefined;
    return { kind: 'wheel', name: parts[0], version: parts[1] };
  }
  const m = SDIST.exec(file);
  if (!m) return undefined;
  const stem = file.slice(0, m.index);
  for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
    const version = stem.slice(i + 1);
    if (isValidVersion('pep440', version)) return { kind: 'sdist', name: stem.slice(0, i), version };
  }
  return undefined;
}
