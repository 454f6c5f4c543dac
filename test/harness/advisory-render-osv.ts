// Test renderer: a generated advisory document → the OSV records a feed
// publishes for it (wolfictl's projection): one record per CGA id whose
// latest event is fixed (`fixed: <version>`) or a false positive
// (`fixed: "0"` + database_specific.false_positive), one `affected` per
// artifact with a pkg:apk purl (and the arch qualifier), modified = the
// latest event's time. A subpackage's origin is named in its entry's
// database_specific.origin, which the importer reads back.
import { formatPurl } from '../../src/vulnerabilities/import/purl.js';
import { byAdvisoryId, latestEvent, type RenderDocument } from './advisory-render-common.js';

export interface RenderedFile {
  name: string;
  text: string;
}

export function renderOsv(doc: RenderDocument, ecosystem = 'Wolfi'): RenderedFile[] {
  const files: RenderedFile[] = [];
  for (const [id, rows] of byAdvisoryId(doc.advisories)) {
    const latest = rows
      .map(latestEvent)
      .sort((x, y) => ((x?.time ?? '') < (y?.time ?? '') ? -1 : 1))
      .at(-1);
    if (!latest || (latest.kind !== 'fixed' && latest.kind !== 'false-positive-determination')) continue;
    const fp = latest.kind === 'false-positive-determination';
    const fixed = fp ? '0' : String(latest.payload.fixedVersion);
    const published = rows.flatMap((r) => r.events.map((e) => e.time)).sort()[0];
    const affected = rows.map((r) => ({
      package: {
        ecosystem,
        name: r.artifactName,
        purl: formatPurl({
          type: 'apk',
          namespace: ecosystem.toLowerCase(),
          name: r.artifactName,
          version: '',
          qualifiers: { arch: r.artifactArchitecture },
          subpath: '',
        }),
      },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }],
      ...(r.artifactName !== doc.origin ? { database_specific: { origin: doc.origin } } : {}),
    }));
    const aliases = [...new Set(rows.flatMap((r) => r.aliases))].sort();
    const record = {
      schema_version: '1.6.0',
      id,
      modified: latest.time,
      published,
      ...(aliases.length > 0 ? { aliases } : {}),
      affected,
      ...(fp ? { database_specific: { false_positive: true } } : {}),
    };
    files.push({ name: `${id}.json`, text: `${JSON.stringify(record, null, 2)}\n` });
  }
  return files;
}
