// The advisory YAML parser against the generator's truth (the rows a rendered
// document must give, through the fast path and the general YAML parser
// alike), and its strictness: every rule the schema enforces refuses the file
// with the line of the offending node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportError } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { parseYamlAdvisories } from '../../src/vulnerabilities/import/yaml-advisories.js';
import { parseSimpleYaml } from '../../src/vulnerabilities/import/yaml-fast-path.js';
import { FALSE_POSITIVE_TYPES } from '../../src/vulnerabilities/event-kinds.js';
import { generateAdvisories, renderYaml } from '../harness/advisory-generator.js';

const OPTS = { architectures: ['x86_64'], namespace: '' };

const BASE = `schema-version: 2.0.2
package:
  name: age
advisories:
  - id: CGA-3fq9-mg48-v2ch
    aliases:
      - CVE-2024-34155
      - GHSA-8xfx-rj4p-23jm
    events:
      - timestamp: 2024-09-10T20:20:24Z
        type: detection
        data:
          type: manual
      - timestamp: 2024-09-18T16:07:19Z
        type: fixed
        data:
          fixed-version: 1.2.0-r2
`;

function edit(replace: Record<number, string | null>, append = ''): string {
  const lines = BASE.split('\n');
  for (const [n, text] of Object.entries(replace)) lines[Number(n) - 1] = text ?? '\u0001';
  return `${lines.filter((l) => l !== '\u0001').join('\n')}${append}`;
}

const SECOND = `  - id: CGA-xvgw-cvr7-9g2q
    aliases:
      - CVE-2023-1111
    events:
      - timestamp: 2024-01-01T00:00:00Z
        type: detection
        data:
          type: manual
`;

/** [name, content, line, message pattern] */
const REFUSED: [string, string, number, RegExp][] = [
  ['an unknown top-level key', `${BASE}extra: value\n`, 18, /unknown key "extra"/],
  ['an unknown advisory key', edit({ 6: '    aliasez:' }), 6, /unknown key "aliasez"/],
  ['an unknown event key', edit({ 11: '        kind: detection' }), 11, /unknown key "kind"/],
  ['an unknown data key', edit({ 17: '          fixed_version: 1.2.0-r2' }), 17, /unknown key "fixed_version"/],
  ['a bad CGA id', edit({ 5: '  - id: CGA-0000-0000-0000' }), 5, /not a CGA id/],
  ['a bad alias', edit({ 7: '      - CVE-24-1' }), 7, /not a CVE, GHSA or GO id/],
  ['an alias equal to the id', edit({ 7: '      - CGA-3fq9-mg48-v2ch' }), 7, /duplicates the advisory's id/],
  ['an alias listed twice', edit({ 8: '      - CVE-2024-34155' }), 8, /listed twice/],
  ['a duplicate id in the file', `${BASE}${SECOND.replace('CGA-xvgw-cvr7-9g2q', 'CGA-3fq9-mg48-v2ch')}`, 18, /id CGA-3fq9-mg48-v2ch is not unique/],
  ['a duplicate alias in the file', `${BASE}${SECOND.replace('CVE-2023-1111', 'CVE-2024-34155')}`, 20, /alias CVE-2024-34155 is not unique/],
  ['a timestamp in the future', edit({ 10: '      - timestamp: 2999-01-01T00:00:00Z' }), 10, /in the future/],
  ['a timestamp that is not RFC 3339', edit({ 10: '      - timestamp: yesterday' }), 10, /not an RFC 3339 time/],
  ['empty advisories', 'schema-version: 2.0.2\npackage:\n  name: age\nadvisories: []\n', 4, /advisories must not be empty/],
  [
    'empty events',
    edit({ 9: '    events: []', 10: null, 11: null, 12: null, 13: null, 14: null, 15: null, 16: null, 17: null }),
    9,
    /events must not be empty/,
  ],
  ['an unknown event type', edit({ 11: '        type: detected' }), 11, /unknown event type "detected"/],
  ['a patched event (not in the YAML schema)', edit({ 15: '        type: patched' }), 15, /unknown event type "patched"/],
  ['an unknown detection type', edit({ 13: '          type: scan/v9' }), 13, /unknown detection type "scan\/v9"/],
  [
    'an unknown false-positive type',
    edit({ 15: '        type: false-positive-determination', 17: '          type: maybe' }),
    17,
    /unknown false-positive type "maybe"/,
  ],
  ['a fixed version that is not an apk version', edit({ 17: '          fixed-version: latest' }), 17, /not an apk version/],
  [
    'a manual detection with data',
    edit({}, '').replace('          type: manual\n', '          type: manual\n          data:\n            cpeFound: x\n'),
    15,
    /manual takes no data/,
  ],
  ['a newer schema version', edit({ 1: 'schema-version: 3.0.0' }), 1, /schema-version 3\.0\.0 is not supported/],
  ['a version 1 document (no schema-version)', edit({ 1: null }), 1, /schema-version is missing/],
  ['a duplicate key', edit({ 3: '  name: age\n  name: other' }), 4, /[Dd]uplicate|unique/],
  ['a NUL byte', edit({ 3: '  name: a\u0000ge' }), 3, /NUL byte/],
];

describe('advisory YAML documents', () => {
  it('give the generated truth, row for row, through the fast path and the general parser', () => {
    const feed = generateAdvisories(42, { documents: 20, advisoriesPerDocument: 6, eventsPerAdvisory: 5 });
    const kinds = new Set<string>();
    const detections = new Set<string>();
    const fps = new Set<unknown>();
    let subpackages = 0;
    for (const doc of feed.documents) {
      const text = renderYaml(doc);
      assert.ok(parseSimpleYaml(text), `${doc.origin}: the generated YAML is in the fast path's subset`);
      const fast = parseYamlAdvisories(`${doc.origin}.advisories.yaml`, text, OPTS);
      const full = parseYamlAdvisories(`${doc.origin}.advisories.yaml`, text, { ...OPTS, fastPath: false });
      assert.deepEqual(fast, doc.advisories, doc.origin);
      assert.deepEqual(full, doc.advisories, doc.origin);
      for (const a of doc.advisories) {
        if (a.artifactName !== a.origin) subpackages++;
        for (const e of a.events) {
          kinds.add(e.kind);
          if (e.kind === 'detection') detections.add(Object.keys(e.payload)[0]);
          if (e.kind === 'false-positive-determination') fps.add(e.payload.type);
        }
      }
    }
    assert.equal(kinds.size, 7, 'every YAML event type');
    assert.deepEqual([...detections].sort(), ['manual', 'nvdapi', 'scanv1']);
    assert.equal(fps.size, FALSE_POSITIVE_TYPES.length, 'every false-positive type');
    assert.ok(subpackages > 0 && subpackages < 120, 'subpackage and package-level advisories');
  });

  it('is the same feed for the same seed and another for another seed', () => {
    assert.deepEqual(generateAdvisories(7, { documents: 3 }), generateAdvisories(7, { documents: 3 }));
    assert.notDeepEqual(generateAdvisories(7, { documents: 3 }), generateAdvisories(8, { documents: 3 }));
  });

  it('split an advisory into rows by scan/v1 component and multiply them by --arch', () => {
    const text = `${BASE.replace(
      '          type: manual\n',
      `          type: manual
      - timestamp: 2024-09-11T00:00:00Z
        type: detection
        data:
          type: scan/v1
          data: {subpackageName: age-dev, componentID: 02c890e439f7e6b4, componentName: stdlib, componentVersion: go1.22.5, componentType: go-module, componentLocation: /usr/bin/age, scanner: grype}
`,
    )}`;
    const rows = parseYamlAdvisories('age.advisories.yaml', text, { architectures: ['x86_64', 'aarch64'], namespace: 'wolfi' });
    assert.deepEqual(
      rows.map((r) => [
        r.artifactArchitecture,
        r.artifactName,
        r.componentName,
        r.componentType,
        r.componentLocation,
        r.packageNamespace,
        r.events.map((e) => e.kind),
      ]),
      [
        ['x86_64', 'age-dev', 'stdlib', 'go-module', '/usr/bin/age', 'wolfi', ['detection', 'detection', 'fixed']],
        ['aarch64', 'age-dev', 'stdlib', 'go-module', '/usr/bin/age', 'wolfi', ['detection', 'detection', 'fixed']],
      ],
    );
    const pkg = parseYamlAdvisories('age.advisories.yaml', BASE, OPTS);
    assert.deepEqual(
      pkg.map((r) => [r.artifactName, r.componentName, r.componentType, r.componentLocation, r.aliases, r.events[1].payload]),
      [['age', 'age', 'apk', './PKGINFO', ['CVE-2024-34155', 'GHSA-8xfx-rj4p-23jm'], { fixedVersion: '1.2.0-r2' }]],
    );
  });

  for (const [name, content, line, message] of REFUSED) {
    it(`refuse ${name} with file and line ${line}`, () => {
      for (const fastPath of [true, false]) {
        assert.throws(
          () => parseYamlAdvisories('x.advisories.yaml', content, { ...OPTS, fastPath }),
          (err: unknown) => {
            assert.ok(err instanceof ImportError, String(err));
            assert.equal(err.file, 'x.advisories.yaml');
            assert.equal(err.line, line, `${err.message} (fast path ${fastPath})`);
            assert.match(err.message, message);
            assert.ok(err.message.startsWith(`x.advisories.yaml:${line}: `));
            return true;
          },
        );
      }
    });
  }

  it('refuse a file over 16 MiB', () => {
    assert.throws(() => parseYamlAdvisories('big.yaml', 'x'.repeat(16 * 1024 * 1024 + 1), OPTS), /big\.yaml:0: .*over the/);
  });
});
