// `berth serve` settings from three sources: every flag (walked from
// `berth serve --help`, so a new flag joins this test by itself) is settable
// in the --config file and by its BERTH_* variable, with flags > environment
// > file > defaults; bad files name the key; --print-config masks secrets;
// and a real start reads the file and the environment and warns about
// insecure settings.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startBerth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { makeTestCa } from '../harness/test-ca.js';

const dir = mkdtempSync(join(tmpdir(), 'berth-serve-config-'));
/** Only the command line sets these: the file, and printing. */
const COMMAND_LINE_ONLY = new Set(['config', 'print-config']);

const envName = (key: string) => `BERTH_${key.toUpperCase().replace(/-/g, '_')}`;

/** The test's environment without any BERTH_* serve setting of the machine's. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BERTH_')));
  return { ...env, ...extra };
}

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function printed(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> {
  const r = await berthCli(['serve', ...args, '--print-config', 'json'], { env: cleanEnv(env) });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('berth serve configuration', () => {
  it('sets every serve flag from the file, the environment and the command line, in that rising order', async () => {
    const help = await berthCli(['serve', '--help'], { env: cleanEnv() });
    const flags = [...help.stdout.matchAll(/^ {2}--([a-z0-9-]+)( [<[])?/gm)]
      .map((m) => ({ key: m[1], takesValue: m[2] !== undefined }))
      .filter((f) => f.key !== 'help' && !COMMAND_LINE_ONLY.has(f.key));
    assert.ok(flags.length >= 30, `serve --help lists its flags:\n${help.stdout}`);

    const fileValue = (f: (typeof flags)[number]) => (f.takesValue ? `file-${f.key}` : true);
    const envValue = (f: (typeof flags)[number]) => (f.takesValue ? `env-${f.key}` : false);
    const config = writeConfig('all.yaml', flags.map((f) => `${f.key}: ${JSON.stringify(fileValue(f))}`).join('\n'));
    const env = Object.fromEntries(flags.map((f) => [envName(f.key), String(envValue(f))]));
    const cli = flags.flatMap((f) => (f.takesValue ? [`--${f.key}`, `flag-${f.key}`] : [`--${f.key}`]));

    const [fromFile, fromEnv, fromFlags] = await Promise.all([
      printed(['--config', config]),
      printed(['--config', config], env),
      printed(['--config', config, ...cli], env),
    ]);
    for (const f of flags) {
      assert.equal(fromFile[f.key], fileValue(f), `${f.key} from the file`);
      assert.equal(fromEnv[f.key], envValue(f), `${f.key} from ${envName(f.key)}, over the file`);
      assert.equal(fromFlags[f.key], f.takesValue ? `flag-${f.key}` : true, `--${f.key} over ${envName(f.key)} and the file`);
    }
  });

  it('prints YAML with each value’s source, defaults where nothing is set, and secrets masked; BERTH_CONFIG names the file', async () => {
    const config = writeConfig('some.yaml', 'org: file.example\nmax-connections: 50\nlog-level: debug\n');
    const r = await berthCli(['serve', '--print-config', '--log-level', 'warn', '--s3-endpoint', 'https://AKIDEXAMPLE:s3-secret-value@s3.example:9000'], {
      env: cleanEnv({
        BERTH_CONFIG: config,
        BERTH_ORG: 'env.example',
        BERTH_DATABASE_URL: 'postgres://berth:hunter2-pw@db.example:5432/berth?sslpassword=pem-pass',
      }),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^org: env\.example # env BERTH_ORG$/m);
    assert.match(r.stdout, new RegExp(`^max-connections: "50" # file ${config}$`, 'm'));
    assert.match(r.stdout, /^log-level: warn # flag$/m);
    assert.match(r.stdout, /^listen: 127\.0\.0\.1:8080 # default$/m);
    assert.match(r.stdout, /# not set: .*tls-cert \(BERTH_TLS_CERT\)/);
    for (const secret of ['hunter2-pw', 'pem-pass', 's3-secret-value']) assert.ok(!r.stdout.includes(secret), `${secret} is masked:\n${r.stdout}`);
    assert.match(r.stdout, /^database: postgres:\/\/berth:\*+@db\.example:5432\/berth\?sslpassword=\*+ # env BERTH_DATABASE_URL$/m);
    assert.match(r.stdout, /^s3-endpoint: https:\/\/AKIDEXAMPLE:\*+@s3\.example:9000\/? # flag$/m);
  });

  it('refuses an unknown key, a value of the wrong type and a bad switch variable, naming them', async () => {
    const unknown = writeConfig('typo.yaml', 'listen: 127.0.0.1:0\nregistry-lisen: 127.0.0.1:0\n');
    const wrongType = writeConfig('type.yaml', 'max-connections: [1, 2]\n');
    const [a, b, c] = await Promise.all([
      berthCli(['serve', '--config', unknown, '--print-config'], { env: cleanEnv() }),
      berthCli(['serve', '--config', wrongType, '--print-config'], { env: cleanEnv() }),
      berthCli(['serve', '--print-config'], { env: cleanEnv({ BERTH_S3_PATH_STYLE: 'yes' }) }),
    ]);
    assert.equal(a.code, 1);
    assert.match(a.stderr, /unknown key "registry-lisen"/);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /"max-connections" must be a string, got a list/);
    assert.equal(c.code, 1);
    assert.match(c.stderr, /BERTH_S3_PATH_STYLE must be true or false/);
  });

  it('starts from the file and the environment, and warns about insecure settings and cleartext off loopback', async () => {
    const ca = makeTestCa();
    const cert = ca.issue('berth-registry');
    const config = writeConfig('start.yaml', `allow-insecure-sinks: true\nregistry-tls-cert: ${cert.certFile}\nregistry-tls-key: ${cert.keyFile}\n`);
    const berth = await startBerth({
      extraArgs: ['--config', config, '--listen', '0.0.0.0:0', '--registry-listen', '0.0.0.0:0'],
      env: cleanEnv({ BERTH_ALLOW_INSECURE_ISSUERS: 'true' }),
    });
    try {
      // The registry took its certificate from the file.
      assert.match(berth.registryUrl ?? '', /^https:\/\/0\.0\.0\.0:\d+$/);
      const warnings = (await berth.settledLogs())
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; flag?: string; msg: string })
        .filter((l) => l.level === 40 && l.flag !== undefined);
      assert.deepEqual(warnings.map((w) => w.flag).sort(), ['--allow-insecure-issuers', '--allow-insecure-sinks', '--listen']);
      assert.match(warnings.find((w) => w.flag === '--listen')?.msg ?? '', /cleartext HTTP on 0\.0\.0\.0/);
    } finally {
      await berth.stop();
    }
  });
});
