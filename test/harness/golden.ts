// Golden files: a response compared with a checked-in JSON file under
// test/golden/. UPDATE_GOLDEN=1 rewrites the files from what the server
// answers (check the diff by eye, then `npx biome check --write test/golden`
// to format them as the repository does; comparison is of the parsed JSON).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const GOLDEN = join(import.meta.dirname, '..', '..', '..', 'test', 'golden');

/** Asserts `value` equals test/golden/<name>.json, or writes it there under UPDATE_GOLDEN=1. */
export function assertGolden(name: string, value: unknown): void {
  const file = join(GOLDEN, `${name}.json`);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(file, 'utf8');
  } catch {
    assert.fail(`no golden file ${file}: run the test with UPDATE_GOLDEN=1 and check it`);
  }
  assert.deepEqual(value, JSON.parse(expected), `differs from ${file} (UPDATE_GOLDEN=1 rewrites it)`);
}
