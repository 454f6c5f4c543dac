// Builds an operator's library mirror on disk for `berth libraries import`:
// a PEP 503 HTML index whose pages link to wheels and sdists under the mirror
// (wheels with METADATA, written with the test zip writer; sdists with
// PKG-INFO, with tar-stream and gzip), a PEP 691 JSON page with PEP 700 sizes
// and times, cu126/cu128 indexes, a flat directory of distributions, a Maven
// repository with maven-metadata.xml, POMs and jars, npm packuments — and a
// few broken files the import must report and skip.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { writeZip } from './zip-writer.js';

async function put(path: string, data: string | Uint8Array, mtime?: Date): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
  if (mtime) await utimes(path, mtime, mtime);
}

function metadata(name: string, version: string, summary: string): string {
  return `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: ${summary}\n\nLong description that is not the summary.\n`;
}

export function wheel(name: string, version: string, summary: string, padding = 0): Buffer {
  const dist = `${name.replace(/-/g, '_')}-${version}.dist-info`;
  return writeZip([
    { name: `${name.replace(/-/g, '_').toLowerCase()}/__init__.py`, data: Buffer.alloc(padding, 'x') },
    { name: `${dist}/METADATA`, data: Buffer.from(metadata(name, version, summary)) },
    { name: `${dist}/RECORD`, data: Buffer.from('') },
  ]);
}

export async function sdist(name: string, version: string, summary: string): Promise<Buffer> {
  const pack = tar.pack();
  const top = `${name}-${version}`;
  pack.entry({ name: `${top}/setup.py` }, 'from setuptools import setup\nsetup()\n');
  pack.entry({ name: `${top}/PKG-INFO` }, metadata(name, version, summary));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack as AsyncIterable<Buffer>) chunks.push(c);
  return gzipSync(Buffer.concat(chunks));
}

const anchor = (href: string, file: string) => `<a href="${href}#sha256=00" data-requires-python="&gt;=3.8">${file}</a><br/>`;
const page = (links: string[]) => `<!DOCTYPE html>\n<html><body>\n${links.join('\n')}\n</body></html>\n`;

export const T0 = new Date('2024-01-10T12:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);

function pom(groupId: string, artifactId: string, version: string, description: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<project><modelVersion>4.0.0</modelVersion><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version><name>${artifactId}</name><description>${description}</description></project>\n`;
}

export const MAVEN_VERSIONS = ['3.17.0', '3.18.0-alpha1', '3.18.0-beta1', '3.18.0-rc1', '3.18.0', '3.18.0-sp1', '3.18.0-0.cgr.1', '3.18.1'];

/** Writes the mirror under `root`. */
export async function writeLibraryMirror(root: string): Promise<void> {
  // PEP 503 HTML: Flask, its files under packages/ (one sdist, wheels with METADATA).
  const flask: Array<[string, Buffer, Date]> = [
    ['Flask-1.0.0rc1-py3-none-any.whl', wheel('Flask', '1.0.0rc1', 'A microframework (rc)'), day(0)],
    ['Flask-1.0.0-py3-none-any.whl', wheel('Flask', '1.0.0', 'A simple framework for building web applications.', 100), day(1)],
    ['flask-1.0.0.post1.tar.gz', await sdist('flask', '1.0.0.post1', 'Flask post release'), day(2)],
    ['Flask-1.0.0+cgr.1-py3-none-any.whl', wheel('Flask', '1.0.0+cgr.1', 'Flask, remediated'), day(3)],
  ];
  for (const [file, bytes, at] of flask) await put(join(root, 'packages', file), bytes, at);
  await put(join(root, 'simple', 'index.html'), page([anchor('flask/', 'flask'), anchor('requests/', 'requests')]));
  await put(join(root, 'simple', 'flask', 'index.html'), page(flask.map(([f]) => anchor(`../../packages/${encodeURIComponent(f)}`, f))));

  // PEP 691 JSON with PEP 700 fields, files elsewhere (not in the mirror).
  await put(
    join(root, 'simple', 'requests', 'index.json'),
    JSON.stringify({
      meta: { 'api-version': '1.1' },
      name: 'requests',
      versions: ['2.31.0', '2.32.0'],
      files: [
        {
          filename: 'requests-2.31.0-py3-none-any.whl',
          url: 'https://files.example/requests-2.31.0-py3-none-any.whl',
          hashes: {},
          size: 62574,
          'upload-time': '2023-05-22T15:12:42.313790Z',
        },
        {
          filename: 'requests-2.32.0.tar.gz',
          url: 'https://files.example/requests-2.32.0.tar.gz',
          hashes: {},
          size: 131000,
          'upload-time': '2024-05-20T15:00:00Z',
        },
        {
          filename: 'requests-2.32.0-py3-none-any.whl',
          url: 'https://files.example/requests-2.32.0-py3-none-any.whl',
          hashes: {},
          size: 63000,
          'upload-time': '2024-05-20T14:00:00Z',
        },
      ],
    }),
  );

  // CUDA indexes: torch for cu126 and cu128.
  for (const cu of ['cu126', 'cu128'])
    await put(
      join(root, cu, 'simple', 'torch', 'index.html'),
      page([anchor(`https://files.example/${cu}/torch-2.5.1%2B${cu}-cp312-cp312-linux_x86_64.whl`, `torch-2.5.1+${cu}-cp312-cp312-linux_x86_64.whl`)]),
    );

  // A flat directory: six (wheel + sdist), and a broken wheel.
  await put(join(root, 'flat', 'six-1.16.0-py2.py3-none-any.whl'), wheel('six', '1.16.0', 'Python 2 and 3 compatibility utilities'), day(5));
  await put(join(root, 'flat', 'six-1.15.0.tar.gz'), await sdist('six', '1.15.0', 'Python 2 and 3 compatibility utilities (old)'), day(4));
  await put(join(root, 'flat', 'broken-1.0-py3-none-any.whl'), 'this is not a zip archive');

  // Maven: commons-lang3 with qualifiers and a remediated rebuild; a broken metadata file.
  const art = join(root, 'maven', 'org', 'apache', 'commons', 'commons-lang3');
  const versions = MAVEN_VERSIONS.map((v) => `<version>${v}</version>`).join('');
  await put(
    join(art, 'maven-metadata.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><versioning><latest>3.18.1</latest><release>3.18.1</release><versions>${versions}</versions><lastUpdated>20240601120000</lastUpdated></versioning></metadata>\n`,
  );
  for (const [i, v] of MAVEN_VERSIONS.entries()) {
    await put(join(art, v, `commons-lang3-${v}.pom`), pom('org.apache.commons', 'commons-lang3', v, `Apache Commons Lang &amp; more, ${v}`), day(10 + i));
    if (v !== '3.17.0') await put(join(art, v, `commons-lang3-${v}.jar`), Buffer.alloc(1000 + i), day(10 + i));
  }
  await put(join(root, 'maven', 'com', 'example', 'broken', 'maven-metadata.xml'), '<metadata><versioning><versions><version>1.0</versions></metadata>');

  // npm packuments: an unscoped and a scoped package.
  await put(
    join(root, 'npm', 'left-pad.json'),
    JSON.stringify({
      name: 'left-pad',
      'dist-tags': { latest: '1.3.0' },
      versions: {
        '1.0.0': { name: 'left-pad', version: '1.0.0', description: 'String left pad', dist: { unpackedSize: 2000 } },
        '1.3.0': { name: 'left-pad', version: '1.3.0', description: 'String left pad, newest', dist: { size: 3000 } },
        '1.1.0-0.cgr.1': { name: 'left-pad', version: '1.1.0-0.cgr.1', description: 'remediated', dist: { size: 2500 } },
      },
      time: { '1.0.0': '2016-01-01T00:00:00.000Z', '1.3.0': '2018-04-09T00:00:00.000Z', '1.1.0-0.cgr.1': '2025-01-01T00:00:00.000Z' },
    }),
  );
  await put(
    join(root, 'npm', '@babel', 'core.json'),
    JSON.stringify({ name: '@babel/core', versions: { '7.24.0': { description: 'Babel compiler core.' } }, time: { '7.24.0': '2024-02-28T00:00:00.000Z' } }),
  );
  await put(join(root, 'npm', 'simple-broken', 'index.json'), '{"name": ');
}
