// endoflife.date release files for the EOL tag tests: a real-shaped excerpt
// of nodejs (v1) and python (v0). Real dates where the case holds on any day
// the tests run (24 active until 2028, 16 expired since 2024, python 3.1
// expired); dates relative to today where it cannot (25 not yet EOL, 23 in
// its grace period, 21 EOL ten days ago, its tag not rebuilt since).
import { execFile } from 'node:child_process';
import { CLI, type Berth } from '../harness/berth-process.js';

/** YYYY-MM-DD `days` from today (UTC). */
export function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const latest = (name: string, date: string) => ({ name, date, link: `https://nodejs.org/en/blog/release/v${name}` });

export function nodejsV1(): unknown {
  const release = (name: string, releaseDate: string, ltsFrom: string | null, eolFrom: string, l: string) => ({
    name,
    codename: null,
    label: ltsFrom ? `${name} (LTS)` : name,
    releaseDate,
    isLts: ltsFrom !== null,
    ltsFrom,
    isEoas: false,
    eoasFrom: null,
    isEol: eolFrom <= day(0),
    eolFrom,
    isMaintained: eolFrom > day(0),
    latest: latest(l, '2025-10-28'),
  });
  return {
    schema_version: '1.0.0',
    generated_at: '2025-11-01T00:00:00+00:00',
    last_modified: '2025-10-30T00:00:00+00:00',
    result: {
      name: 'nodejs',
      aliases: ['node'],
      label: 'Node.js',
      category: 'framework',
      tags: ['javascript-runtime', 'openjs'],
      versionCommand: 'node --version',
      identifiers: [{ type: 'purl', id: 'pkg:generic/nodejs' }],
      labels: { eoas: 'Active Support', discontinued: null, eol: 'Security Support', eoes: null },
      links: {
        icon: 'https://cdn.jsdelivr.net/npm/simple-icons/icons/nodedotjs.svg',
        html: 'https://endoflife.date/nodejs',
        releasePolicy: 'https://nodejs.org/about/releases/',
      },
      releases: [
        release('25', '2025-10-15', null, day(180), '25.1.0'),
        release('24', '2025-05-06', '2025-10-28', '2028-04-30', '24.11.0'),
        release('23', '2024-10-16', null, day(-30), '23.11.1'),
        release('22', '2024-04-24', '2024-10-29', '2027-04-30', '22.21.0'),
        release('21', '2023-10-17', null, day(-10), '21.7.3'),
        release('16', '2021-04-20', '2021-10-26', '2023-09-11', '16.20.2'),
      ],
    },
  };
}

export function pythonV0(): unknown {
  return [
    { cycle: '3.13', releaseDate: '2024-10-07', eol: '2029-10-31', latest: '3.13.9', latestReleaseDate: '2025-10-14', lts: false, support: '2026-10-01' },
    { cycle: '3.12', releaseDate: '2023-10-02', eol: '2028-10-31', latest: '3.12.12', latestReleaseDate: '2025-10-09', lts: false, support: '2025-04-02' },
    { cycle: '3.1', releaseDate: '2009-06-27', eol: '2012-04-09', latest: '3.1.5', latestReleaseDate: '2012-04-06', lts: false },
    { cycle: '2.7', releaseDate: '2010-07-03', eol: '2020-01-01', latest: '2.7.18', latestReleaseDate: '2020-04-19', lts: false },
  ];
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `berth eol <args>` against the server's database. */
export function eolCli(berth: Berth, args: string[]): Promise<Run> {
  const all = [CLI, 'eol', ...args, '--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : [])];
  const env = { ...process.env };
  delete env.BERTH_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, all, { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
