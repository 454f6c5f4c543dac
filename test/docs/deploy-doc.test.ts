// docs/deploy.md cannot drift from the example configurations: it shows
// deploy/haproxy.cfg (the file test/e2e/several-instances.test.ts runs) and
// deploy/nginx.conf verbatim, and haproxy accepts the file as it is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HAPROXY_TEMPLATE, haproxyMissing } from '../harness/haproxy.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');

/** The body of the doc's one fenced block of `lang`. */
function block(lang: string): string {
  const blocks = [...doc.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))];
  assert.equal(blocks.length, 1, `one ${lang} block in docs/deploy.md`);
  return blocks[0][1];
}

describe('docs/deploy.md', () => {
  it('shows deploy/haproxy.cfg and deploy/nginx.conf as they are', () => {
    assert.equal(block('haproxy'), readFileSync(HAPROXY_TEMPLATE, 'utf8'));
    assert.equal(block('nginx'), readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8'));
  });

  it('gives haproxy a configuration it accepts', { skip: haproxyMissing }, () => {
    const r = spawnSync('haproxy', ['-c', '-f', HAPROXY_TEMPLATE], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
});
