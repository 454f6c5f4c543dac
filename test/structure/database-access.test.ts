// How code reaches the database: auth touches no IAM table, only
// src/store/db-capabilities.ts tells the dialects apart, and domain code
// writes only inside transact(store, tx => …)
// (src/store/transact.ts), so every mutating RPC is one transaction and an
// outbox row can join any change. A write straight on the store's Kysely
// instance, or a transaction opened by hand, fails this test.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'gen' || name === 'store' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const IAM_TABLE_ACCESS =
  /\b(selectFrom|insertInto|updateTable|deleteFrom)\(\s*'(groups|identities|roles|role_bindings|identity_providers|external_group_role_mappings)\b/;

describe('auth depends on IAM through an interface', () => {
  it('no code under src/auth reads or writes an IAM table', () => {
    const offenders: string[] = [];
    for (const file of sources(join(SRC, 'auth'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (IAM_TABLE_ACCESS.test(line)) offenders.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offenders, []);
  });
});

describe('database differences in one place', () => {
  it('only src/store/db-capabilities.ts tells SQLite from PostgreSQL', () => {
    const offenders: string[] = [];
    for (const file of [...sources(SRC), ...sources(join(SRC, 'store'))]) {
      if (file.endsWith('db-capabilities.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bcaps\.kind\b|dialect\s*===|['"](postgres|sqlite)['"]\s*[=!]==|[=!]==\s*['"](postgres|sqlite)['"]/.test(line))
            offenders.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offenders, []);
  });
});

describe('one write path', () => {
  it('no domain code opens a transaction or writes outside transact()', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.transaction\(\)/.test(line) || /\bdb\s*\.\s*(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\b/.test(line)) {
            offenders.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    assert.deepEqual(offenders, []);
  });
});
