// One writer per resource: a group, identity, repo, role binding or tag is
// inserted only by its domain's writer, which validates, writes the row, its
// history and its event in the caller's transaction. A second insert path
// could skip a rule or an event, so any other code inserting into one of
// these tables fails this test.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');

/** Each table's one writer, relative to src/. */
const WRITERS: Record<string, string> = {
  groups: 'iam/groups/group-writer.ts',
  identities: 'iam/identities/identity-writer.ts',
  repos: 'registry/repos/repo-writer.ts',
  role_bindings: 'iam/role-bindings/write-binding.ts',
  scan_inventories: 'scanning/inventories/inventory-writer.ts',
  scan_packages: 'scanning/inventories/inventory-writer.ts',
  scan_inventory_keys: 'scanning/inventories/inventory-writer.ts',
  tags: 'registry/tags/tag-writer.ts',
  // What matching reads of the advisories, and the log of what changed in it.
  advisory_affected: 'vulnerabilities/affected/range-writer.ts',
  advisory_ranges: 'vulnerabilities/affected/range-writer.ts',
  advisory_changes: 'vulnerabilities/affected/range-writer.ts',
  vuln_reports: 'scanning/scanner-reports/store-scanner-report.ts',
  library_artifacts: 'libraries/catalogue-writer.ts',
  library_versions: 'libraries/catalogue-writer.ts',
  // The S3 blob driver's upload state (migration 0032).
  s3_uploads: 'registry/blobs/s3-upload-state.ts',
  // The audit log: reached through the outbox, the registry's deletes and refused attempts.
  audit_entries: 'events/audit/audit-writer.ts',
  berth_report_parts: 'scanning/scanner-reports/store-scanner-report.ts',
};
const TABLES = Object.keys(WRITERS).join('|');

// Kysely's builders (the table may be on the next line), the compiled insert, and SQL text.
const INSERTS = [
  new RegExp(`\\b(?:insertInto|replaceInto|mergeInto)\\(\\s*['"\`](${TABLES})['"\`]`, 'g'),
  new RegExp(`\\binsertCompiled\\([^,]+,\\s*['"\`](${TABLES})['"\`]`, 'g'),
  new RegExp(`\\b(?:insert|replace)\\s+(?:or\\s+\\w+\\s+)?into\\s+"?(${TABLES})\\b`, 'gi'),
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'gen' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Every insert into a writer-owned table: `file:line: table`. */
function insertsIn(file: string): { table: string; at: string }[] {
  const text = readFileSync(file, 'utf8');
  const out: { table: string; at: string }[] = [];
  for (const pattern of INSERTS) {
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ table: m[1].toLowerCase(), at: `${relative(SRC, file)}:${line}` });
    }
  }
  return out;
}

describe('one writer per resource', () => {
  const found = sources(SRC).flatMap(insertsIn);

  it('only the resource writer inserts into groups, identities, repos, role_bindings, tags and stored inventories', () => {
    const offenders = found.filter((f) => !f.at.startsWith(`${WRITERS[f.table]}:`)).map((f) => `${f.at}: inserts into ${f.table}`);
    assert.deepEqual(offenders, []);
  });

  it('each writer is found inserting its table (the patterns still see the inserts)', () => {
    for (const [table, writer] of Object.entries(WRITERS)) {
      assert.ok(
        found.some((f) => f.table === table && f.at.startsWith(`${writer}:`)),
        `${writer} should insert into ${table}; if the writer moved, update WRITERS`,
      );
    }
  });
});
