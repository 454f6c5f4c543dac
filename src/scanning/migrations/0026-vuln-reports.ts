// Vulnerability reports per image digest (src/scanning/scanner-reports/):
// one row per repo, digest, scanner and report time, so the same report stored
// twice is stored once. Lists read by digest (any repo) or by repo, newest first.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('vuln_reports')
    .addColumn('id', caps.serialType, (c) => (caps.serialNeedsAutoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('scanner_name', t, (c) => c.notNull().check(sql`scanner_name in ('GRYPE', 'TRIVY', 'BERTH')`))
    .addColumn('scanner_version', t, (c) => c.notNull())
    .addColumn('db_build_time', t)
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('vulnerabilities', 'text', (c) => c.notNull())
    .addColumn('raw', caps.bytesType)
    .addColumn('raw_digest', t, (c) => c.notNull())
    .addColumn('referrer_digest', t)
    .addColumn('store_time', t, (c) => c.notNull())
    .addUniqueConstraint('vuln_reports_key', ['repo_uid', 'digest', 'scanner_name', 'created_at'])
    .addForeignKeyConstraint('vuln_reports_repo_uid_fk', ['repo_uid'], 'repos', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('vuln_reports_digest').on('vuln_reports').columns(['digest', 'created_at']).execute();
  await db.schema.createIndex('vuln_reports_repo').on('vuln_reports').columns(['repo_uid', 'created_at']).execute();
}
