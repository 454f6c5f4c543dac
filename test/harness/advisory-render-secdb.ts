// Test renderer: generated advisory documents → one Alpine-style secdb
// security.json, as wolfictl publishes it: a package per origin, and under
// it, per advisory whose latest event is fixed (its version) or a false
// positive ("0"), the CGA id followed by its aliases. Nothing else survives.
import { byAdvisoryId, latestEvent, type RenderDocument } from './advisory-render-common.js';

export function renderSecdb(docs: readonly RenderDocument[], archs: readonly string[] = ['x86_64']): string {
  const packages = [];
  for (const doc of docs) {
    const secfixes: Record<string, string[]> = {};
    for (const [id, rows] of byAdvisoryId(doc.advisories)) {
      const latest = rows
        .map(latestEvent)
        .sort((x, y) => ((x?.time ?? '') < (y?.time ?? '') ? -1 : 1))
        .at(-1);
      if (!latest) continue;
      let key: string;
      if (latest.kind === 'fixed') key = String(latest.payload.fixedVersion);
      else if (latest.kind === 'false-positive-determination') key = '0';
      else continue;
      secfixes[key] = [...(secfixes[key] ?? []), id, ...[...new Set(rows.flatMap((r) => r.aliases))].sort()];
    }
    if (Object.keys(secfixes).length > 0) packages.push({ pkg: { name: doc.origin, secfixes } });
  }
  const db = {
    apkurl: '{{urlprefix}}/{{reponame}}/{{arch}}/{{pkg.name}}-{{pkg.ver}}.apk',
    archs,
    reponame: 'os',
    urlprefix: 'https://packages.wolfi.dev',
    packages,
  };
  return `${JSON.stringify(db, null, 2)}\n`;
}
