// deploy/berth.service: its ExecStart runs `berth serve` with flags the
// command lists, it reloads with SIGHUP, keeps the hardening docs/operations.md
// promises, and systemd itself parses it (systemd-analyze verify, where
// systemd is installed) without a warning.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../harness/berth-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const UNIT_FILE = join(ROOT, 'deploy', 'berth.service');
const INSTALL_DIR = '/opt/berth';

/** The unit's settings, by section, each key with its values in order (a key may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1], current);
      continue;
    }
    const eq = line.indexOf('=');
    assert.ok(current && eq > 0, `not a setting: ${line}`);
    const key = line.slice(0, eq);
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1)]);
  }
  return sections;
}

const text = readFileSync(UNIT_FILE, 'utf8');
const unit = parseUnit(text);
const service = unit.get('Service')!;
const one = (key: string) => {
  const v = service.get(key);
  assert.equal(v?.length, 1, `${key} is set once`);
  return v[0];
};

describe('the systemd unit', () => {
  it('starts berth serve with the pinned Node.js and only flags that berth serve lists', () => {
    const [node, main, command, ...args] = one('ExecStart').split(/\s+/);
    assert.equal(node, `${INSTALL_DIR}/node_modules/.bin/node`);
    assert.equal(main, `${INSTALL_DIR}/dist/src/cli/main.js`);
    assert.equal(command, 'serve');
    const help = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    const listed = new Set(help.stdout.match(/--[a-z0-9-]+/g));
    const flags = args.filter((a) => a.startsWith('--'));
    assert.ok(flags.length > 0);
    for (const flag of flags) assert.ok(listed.has(flag), `${flag} is not a flag of berth serve`);
    assert.deepEqual(flags, ['--data'], 'flags win over the environment file and the configuration file: the unit sets only what it owns');
    assert.equal(args[args.indexOf('--data') + 1], '/var/lib/berth', 'the data directory is the StateDirectory');
    assert.equal(one('StateDirectory'), 'berth');
  });

  it('reloads with SIGHUP and stops with SIGTERM', () => {
    assert.equal(one('ExecReload'), '/bin/kill -HUP $MAINPID');
    assert.equal(one('KillSignal'), 'SIGTERM');
    assert.equal(one('EnvironmentFile'), '-/etc/berth/berth.env');
  });

  it('runs as a dynamic user without capabilities, the host read-only', () => {
    const hardening: Record<string, string> = {
      DynamicUser: 'yes',
      NoNewPrivileges: 'yes',
      CapabilityBoundingSet: '',
      AmbientCapabilities: '',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
      RestrictSUIDSGID: 'yes',
    };
    for (const [key, value] of Object.entries(hardening)) assert.equal(one(key), value, key);
    assert.equal(service.get('MemoryDenyWriteExecute'), undefined, "V8's JIT needs writable executable memory");
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it('parses without a warning in systemd-analyze verify', { skip: analyze ? false : 'systemd-analyze is not installed' }, () => {
    // The same unit, pointed at this checkout: verify checks that ExecStart's program exists.
    const dir = mkdtempSync(join(tmpdir(), 'berth-unit-'));
    try {
      const file = join(dir, 'berth.service');
      writeFileSync(file, text.replaceAll(`${INSTALL_DIR}/node_modules/.bin/node`, process.execPath).replaceAll(INSTALL_DIR, ROOT));
      const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(
        r.stderr
          .split('\n')
          .filter((l) => l.includes('berth.service'))
          .join('\n'),
        '',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
