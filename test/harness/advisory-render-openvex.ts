// Test renderer: a generated advisory document → one OpenVEX v0.2.0
// document: a statement per advisory row whose latest event has a VEX
// status (detection → under_investigation, true positive → affected,
// fixed → fixed with the version in the product purl, false positive →
// not_affected with the type's justification and the note as impact
// statement). The product is the artifact's pkg:apk purl (arch qualifier);
// a component other than the package itself is a subcomponent purl whose
// subpath is its location.
import { FALSE_POSITIVE_TYPES } from '../../src/vulnerabilities/event-kinds.js';
import { PACKAGE_COMPONENT } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { formatPurl, purlTypeOfComponent } from '../../src/vulnerabilities/import/purl.js';
import { latestEvent, type RenderDocument } from './advisory-render-common.js';

const STATUS: Readonly<Record<string, string>> = {
  detection: 'under_investigation',
  'true-positive-determination': 'affected',
  fixed: 'fixed',
  'false-positive-determination': 'not_affected',
};

export function renderOpenVex(doc: RenderDocument, namespace = 'wolfi'): string {
  const statements = [];
  let newest = '2024-01-01T00:00:00.000Z';
  for (const a of doc.advisories) {
    const latest = latestEvent(a);
    const status = latest && STATUS[latest.kind];
    if (!latest || !status) continue;
    if (latest.time > newest) newest = latest.time;
    const version = latest.kind === 'fixed' ? String(latest.payload.fixedVersion) : '';
    const packageComponent =
      a.componentName === a.artifactName && a.componentType === PACKAGE_COMPONENT.componentType && a.componentLocation === PACKAGE_COMPONENT.componentLocation;
    const product = {
      '@id': formatPurl({ type: 'apk', namespace, name: a.artifactName, version, qualifiers: { arch: a.artifactArchitecture }, subpath: '' }),
      ...(packageComponent
        ? {}
        : {
            subcomponents: [
              {
                '@id': formatPurl({
                  type: purlTypeOfComponent(a.componentType),
                  namespace: '',
                  name: a.componentName,
                  version: '',
                  qualifiers: {},
                  subpath: a.componentLocation.replace(/^\/+/, ''),
                }),
              },
            ],
          }),
    };
    const note = typeof latest.payload.note === 'string' ? latest.payload.note : undefined;
    const justification = FALSE_POSITIVE_TYPES.find((t) => t.proto === latest.payload.type)?.vex;
    statements.push({
      vulnerability: { name: a.advisoryId, ...(a.aliases.length > 0 ? { aliases: a.aliases } : {}) },
      timestamp: latest.time,
      products: [product],
      status,
      ...(status === 'not_affected' ? { justification: justification ?? 'vulnerable_code_not_present', ...(note ? { impact_statement: note } : {}) } : {}),
      ...(status === 'affected' && note ? { action_statement: note } : {}),
    });
  }
  const vex = {
    '@context': 'https://openvex.dev/ns/v0.2.0',
    '@id': `https://example.test/openvex/${doc.origin}`,
    author: 'Berth test feed',
    timestamp: newest,
    version: 1,
    statements,
  };
  return `${JSON.stringify(vex, null, 2)}\n`;
}
