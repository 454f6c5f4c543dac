// The OCI distribution-spec conformance suite (the port in ./conformance/, all
// four workflows) against Berth's registry listener, authenticating through the
// registry's token flow as the first-start owner: HTTP Basic `_token` with a
// Berth token whose audience is the registry's host:port. Every spec must pass:
// there is no todo list here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type Berth, CLI, startBerth } from '../harness/berth-process.js';
import { runConformanceLazily } from './conformance/index.js';

// ─── ADAPTER: the only part to wire when the registry listener exists ───────────
/** What the suite needs from a running Berth. */
interface BerthRegistry {
  /** host:port of the registry listener. */
  registry: string;
  /** The organization repositories are addressed under (`<org>/<repo>`). */
  orgName: string;
  /** HTTP Basic credentials the registry's /token accepts. */
  username: string;
  password: string;
  stop(): Promise<void>;
}

/** A Berth token for the owner, addressed to `audience` (`berth auth token --audience`). */
function ownerTokenFor(credentialsFile: string, audience: string): string {
  const r = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', credentialsFile, '--audience', audience], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`berth auth token failed: ${r.stderr}`);
  return r.stdout.trim();
}

async function startBerthRegistry(): Promise<BerthRegistry> {
  // The harness starts the registry listener on a free port; its public URL's host is the token audience.
  const berth: Berth = await startBerth();
  if (!berth.registryPublicUrl) {
    await berth.stop();
    throw new Error('the harness returned no registry URL');
  }
  const registry = new URL(berth.registryPublicUrl).host;
  return {
    registry,
    orgName: berth.orgName,
    username: '_token',
    password: ownerTokenFor(berth.credentialsFile, registry),
    stop: () => berth.stop().then(() => {}),
  };
}
// ─── end of adapter ─────────────────────────────────────────────────────────────

/** Specs the Go suite itself skips in this configuration (no OCI_TAG_NAME/OCI_TAG_LIST; OCI_AUTOMATIC_CROSSMOUNT unset). */
const SKIPPED_BY_DESIGN = new Set([
  'Pull > Setup > Get tag name from environment',
  'Content Discovery > Setup > Populate registry with test tags (no push)',
  // one of the two, depending on whether the registry mounted (201) or opened an upload (202)
  'Push > Cross-Repository Blob Mount > GET request to test digest within cross-mount namespace should return 200',
  'Push > Cross-Repository Blob Mount > Cross-mounting of nonexistent blob should yield session id',
  'Push > Cross-Repository Blob Mount > Cross-mounting without from, and automatic content discovery enabled should return a 201',
  'Push > Cross-Repository Blob Mount > Cross-mounting without from, and automatic content discovery disabled should return a 202',
]);

describe('OCI conformance against Berth', () => {
  let berth: BerthRegistry | undefined;
  before(async () => {
    berth = await startBerthRegistry();
  });
  after(async () => {
    await berth?.stop();
  });

  const run = runConformanceLazily({ workflows: { pull: true, push: true, discovery: true, management: true } }, () => ({
    registry: berth!.registry,
    namespace: `${berth!.orgName}/conformance`,
    crossmountNamespace: `${berth!.orgName}/conformance-mount`,
    username: berth!.username,
    password: berth!.password,
  }));

  it('every spec passed, or was skipped by the Go suite’s own conditions', () => {
    const failed = [...run.outcomes].filter(([, o]) => o === 'failed').map(([spec]) => spec);
    const skipped = [...run.outcomes].filter(([spec, o]) => o === 'skipped' && !SKIPPED_BY_DESIGN.has(spec)).map(([spec]) => spec);
    assert.deepEqual({ failed, skipped }, { failed: [], skipped: [] });
    assert.ok(run.outcomes.size > 50, `only ${run.outcomes.size} specs ran`);
  });
});
