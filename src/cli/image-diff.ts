// What changed from image A to image B, as chainctl's `images diff` shows it:
// packages added, removed and changed (by package identity: the purl without
// version, qualifiers and subpath, so a new distro or arch qualifier is the
// same package), and vulnerabilities fixed (in A's report, not in B's) and
// introduced (in B's, not in A's). A vulnerability is the same in both when
// its CVE (the id, else the first CVE alias; else the id) and package name
// are, so a Grype GHSA id and a Trivy CVE id of one flaw meet.
import { PackageURL } from 'packageurl-js';
import type { ReportVulnerability } from './image-vuln-report.js';
import { bySeverity } from './vuln-severity.js';

export interface SbomPackage {
  name?: string;
  version?: string;
  purl?: string;
}

export interface PackageVersion {
  name: string;
  version: string;
  purl: string;
}

export interface PackageChange {
  name: string;
  previous: { version: string; purl: string };
  current: { version: string; purl: string };
}

export interface PackageDiff {
  added: PackageVersion[];
  removed: PackageVersion[];
  changed: PackageChange[];
}

function packageKey(p: SbomPackage): string {
  if (p.purl) {
    try {
      const u = PackageURL.fromString(p.purl);
      return `${u.type}/${u.namespace ?? ''}/${u.name}`;
    } catch {
      // Not a purl this library reads: the name still identifies it.
    }
  }
  return `name:${p.name ?? ''}`;
}

/** Each key's packages, versions in order; several when an image holds one package at several versions. */
function byKey(packages: readonly SbomPackage[]): Map<string, PackageVersion[]> {
  const out = new Map<string, PackageVersion[]>();
  for (const p of packages) {
    const key = packageKey(p);
    const list = out.get(key) ?? [];
    if (!list.some((x) => x.version === (p.version ?? ''))) list.push({ name: p.name ?? '', version: p.version ?? '', purl: p.purl ?? '' });
    out.set(key, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.version.localeCompare(b.version));
  return out;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

export function diffPackages(a: readonly SbomPackage[], b: readonly SbomPackage[]): PackageDiff {
  const before = byKey(a);
  const after = byKey(b);
  const diff: PackageDiff = { added: [], removed: [], changed: [] };
  for (const [key, list] of after) if (!before.has(key)) diff.added.push(...list);
  for (const [key, list] of before) {
    const now = after.get(key);
    if (!now) diff.removed.push(...list);
    else if (list.map((p) => p.version).join('\0') !== now.map((p) => p.version).join('\0')) {
      const join = (ps: PackageVersion[], f: 'version' | 'purl') => ps.map((p) => p[f]).join(', ');
      diff.changed.push({
        name: now[0].name || list[0].name,
        previous: { version: join(list, 'version'), purl: join(list, 'purl') },
        current: { version: join(now, 'version'), purl: join(now, 'purl') },
      });
    }
  }
  diff.added.sort(byName);
  diff.removed.sort(byName);
  diff.changed.sort(byName);
  return diff;
}

const CVE = /^CVE-\d{4}-\d+$/i;

function vulnKey(v: ReportVulnerability): string {
  const ids = [v.id, ...(v.aliases ?? [])];
  const cve = ids.find((id) => CVE.test(id)) ?? v.id;
  return `${cve.toUpperCase()}\0${v.package?.name ?? v.purls?.[0] ?? ''}`;
}

export interface VulnDiff {
  /** In A, not in B. */
  fixed: ReportVulnerability[];
  /** In B, not in A. */
  introduced: ReportVulnerability[];
}

export function diffVulnerabilities(a: readonly ReportVulnerability[], b: readonly ReportVulnerability[]): VulnDiff {
  const inA = new Set(a.map(vulnKey));
  const inB = new Set(b.map(vulnKey));
  const once = (vs: readonly ReportVulnerability[], other: Set<string>) => {
    const seen = new Set<string>();
    return vs.filter((v) => {
      const k = vulnKey(v);
      if (other.has(k) || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  return { fixed: once(a, inB).sort(bySeverity), introduced: once(b, inA).sort(bySeverity) };
}
