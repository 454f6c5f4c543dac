// Version order per ecosystem, checked against each specification's own
// examples: apk-tools' version.data, Debian Policy §5.6.12 and dpkg's
// t-version.c, Maven's ComparableVersionTest, PEP 440's ordering example,
// SemVer 2.0.0 §11 and the Go modules reference's pseudo-versions. Plus
// hostile strings: the comparators never throw and stay antisymmetric.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareApkVersions } from '../../src/versions/apk-version.js';
import { compareVersions, isValidVersion, MAX_VERSION_LENGTH, VERSION_SCHEMES, type VersionScheme } from '../../src/versions/compare-versions.js';
import { APK_VERSION_DATA } from './apk-version-data.js';

function ascending(scheme: VersionScheme, versions: readonly string[]): void {
  for (let i = 0; i < versions.length; i++) {
    for (let j = i + 1; j < versions.length; j++) {
      assert.ok(compareVersions(scheme, versions[i], versions[j]) < 0, `${scheme}: ${versions[i]} < ${versions[j]}`);
      assert.ok(compareVersions(scheme, versions[j], versions[i]) > 0, `${scheme}: ${versions[j]} > ${versions[i]}`);
    }
  }
}

function equal(scheme: VersionScheme, a: string, b: string): void {
  assert.equal(compareVersions(scheme, a, b), 0, `${scheme}: ${a} = ${b}`);
  assert.equal(compareVersions(scheme, b, a), 0, `${scheme}: ${b} = ${a}`);
}

describe('apk order (apk-tools test/unit/version.data)', () => {
  const lines = APK_VERSION_DATA.split('\n')
    .map((l) => l.split('#')[0].trim())
    .filter((l) => l !== '');

  it('reads the whole table', () => assert.ok(lines.length > 700));

  for (const line of lines) {
    it(line, () => {
      const parts = line.split(/\s+/);
      if (parts.length === 3) {
        let [a, op, b] = parts;
        const invert = op.startsWith('!');
        if (invert) op = op.slice(1);
        const fuzzy = op.includes('~');
        const r = compareApkVersions(a, b, fuzzy);
        const ok = (op.includes('<') && r < 0) || (op.includes('>') && r > 0) || ((op.includes('=') || op.includes('~')) && r === 0);
        assert.equal(ok, !invert, `compare(${a}, ${b}) = ${r}`);
      } else {
        const invert = parts[0].startsWith('!');
        const v = invert ? parts[0].slice(1) : parts[0];
        assert.equal(isValidVersion('apk', v), !invert);
      }
    });
  }
});

describe('dpkg order (Debian Policy §5.6.12, dpkg t-version.c)', () => {
  it('sorts ~ before everything, even the end of the part, and letters before other characters', () => {
    // Policy: "~~, ~~a, ~, the empty part, a".
    ascending('dpkg', ['1.0~~', '1.0~~a', '1.0~', '1.0', '1.0a']);
    ascending('dpkg', ['1.0-1~bpo1', '1.0-1', '1.0-1+deb12u1', '1.0-1.1']);
    ascending('dpkg', ['2.36-9+deb12u3', '2.36-9+deb12u4', '2.36-9+deb12u10']);
  });

  it('compares epochs first', () => {
    ascending('dpkg', ['0:0-0', '1:0-0']);
    ascending('dpkg', ['9.9-9', '1:0.1-1', '2:0.0.1']);
    equal('dpkg', '1:2-3', '1:2-3');
  });

  it('compares digit runs numerically and parts separately', () => {
    equal('dpkg', '0:0-00', '0:00-0');
    ascending('dpkg', ['0:1-1', '0:2-1']);
    ascending('dpkg', ['0:1-1', '0:1-2']);
    ascending('dpkg', ['1.9', '1.10', '1.100']);
    ascending('dpkg', ['0:0-a', '0:0-b']);
  });

  it('parses versions as parseversion does', () => {
    equal('dpkg', '0', '0:0');
    equal('dpkg', '0:0-', '0');
    equal('dpkg', '0:0-0-0', '0:0-0-0');
    equal('dpkg', '  \t0:0-1', '0:0-1');
    for (const v of ['0', '0:0', '0:0-', '0:0-0', '0:0.0-0.0', '1:0', '5:1', '0:0-0-0', '0:0:0-0', '0:09azAZ.-+~:-0', '0:0-azAZ09.+~', '  \t0:0-1  '])
      assert.ok(isValidVersion('dpkg', v), v);
    for (const v of ['', '  ', '0:', '0:0 0-1', '-1:0-1', '999999999999999999999999:0-1', 'a:0-0', 'A:0-0', '-0', '0:-0', '0:abc3-0', '0:0-0:0'])
      assert.ok(!isValidVersion('dpkg', v), JSON.stringify(v));
    for (const c of "!#@$%&/|\\<>()[]{};,_=*^'") assert.ok(!isValidVersion('dpkg', `0:0${c}-0`), c);
  });
});

describe('Maven order (ComparableVersionTest)', () => {
  it('orders qualifiers', () =>
    ascending('maven', [
      '1-alpha2snapshot',
      '1-alpha2',
      '1-alpha-123',
      '1-beta-2',
      '1-beta123',
      '1-m2',
      '1-m11',
      '1-rc',
      '1-cr2',
      '1-rc123',
      '1-SNAPSHOT',
      '1',
      '1-sp',
      '1-sp2',
      '1-sp123',
      '1-abc',
      '1-def',
      '1-pom-1',
      '1-1-snapshot',
      '1-1',
      '1-2',
      '1-123',
    ]));

  it('orders numbers', () =>
    ascending('maven', [
      '2.0',
      '2.0.a',
      '2-1',
      '2.0.2',
      '2.0.123',
      '2.1.0',
      '2.1-a',
      '2.1b',
      '2.1-c',
      '2.1-1',
      '2.1.0.1',
      '2.2',
      '2.123',
      '11.a2',
      '11.a11',
      '11.b2',
      '11.b11',
      '11.m2',
      '11.m11',
      '11',
      '11.a',
      '11b',
      '11c',
      '11m',
    ]));

  it('finds these equal', () => {
    const pairs = [
      ['1', '1'],
      ['1', '1.0'],
      ['1', '1.0.0'],
      ['1.0', '1.0.0'],
      ['1', '1-0'],
      ['1', '1.0-0'],
      ['1.0', '1.0-0'],
      ['1a', '1-a'],
      ['1a', '1.0-a'],
      ['1a', '1.0.0-a'],
      ['1.0a', '1-a'],
      ['1.0.0a', '1-a'],
      ['1x', '1-x'],
      ['1x', '1.0-x'],
      ['1x', '1.0.0-x'],
      ['1.0x', '1-x'],
      ['1.0.0x', '1-x'],
      ['1cr', '1rc'],
      ['1a1', '1-alpha-1'],
      ['1b2', '1-beta-2'],
      ['1m3', '1-milestone-3'],
      ['1X', '1x'],
      ['1A', '1a'],
      ['1B', '1b'],
      ['1M', '1m'],
      ['1Cr', '1Rc'],
      ['1cR', '1rC'],
      ['1m3', '1Milestone3'],
      ['1m3', '1MileStone3'],
      ['1m3', '1MILESTONE3'],
      ['1ga', '1'],
      ['1release', '1'],
      ['1final', '1'],
      ['1GA', '1'],
      ['1RELeaSE', '1'],
      ['1FINAL', '1'],
      ['1.0.0-alpha1', '1.0.0-ALPHA1'],
      ['1.a', '1.A'],
      ['1.é', '1.É'],
      ['1-abcdefghijklmnopqrstuvwxyz', '1-ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
    ];
    for (const [a, b] of pairs) equal('maven', a, b);
    for (let n = 1; n <= 19; n++) {
      equal('maven', `${'0'.repeat(n - 1)}1`, '1');
      equal('maven', '0'.repeat(n), '0');
    }
  });

  it('compares', () => {
    const pairs = [
      ['1', '2'],
      ['1.5', '2'],
      ['1', '2.5'],
      ['1.0', '1.1'],
      ['1.1', '1.2'],
      ['1.0.0', '1.1'],
      ['1.0.1', '1.1'],
      ['1.1', '1.2.0'],
      ['1.0-alpha-1', '1.0'],
      ['1.0-alpha-1', '1.0-alpha-2'],
      ['1.0-alpha-1', '1.0-beta-1'],
      ['1.0-beta-1', '1.0-SNAPSHOT'],
      ['1.0-SNAPSHOT', '1.0'],
      ['1.0-alpha-1-SNAPSHOT', '1.0-alpha-1'],
      ['1.0', '1.0-1'],
      ['1.0-1', '1.0-2'],
      ['1.0.0', '1.0-1'],
      ['2.0-1', '2.0.1'],
      ['2.0.1-klm', '2.0.1-lmn'],
      ['2.0.1', '2.0.1-xyz'],
      ['2.0.1', '2.0.1-123'],
      ['2.0.1-xyz', '2.0.1-123'],
      ['0.7', '2'],
      ['0.2', '1.0.7'],
      ['é', '1'],
      ['\uD835\uDFE4', '1'],
      ['J', '7'],
      ['c', '7'],
      ['\u0668', '1'],
      ['\u0668', '9'],
      ['aardvark', 'zebra'],
      ['zebra', 'ζέβρα'],
      // MNG-5568
      ['6.1.0rc3', '6.1.0'],
      ['6.1.0rc3', '6.1H.5-beta'],
      ['6.1.0', '6.1H.5-beta'],
      // MNG-6572
      ['20190126.230843', '1234567890.12345'],
      ['1234567890.12345', '123456789012345.1H.5-beta'],
      ['20190126.230843', '123456789012345.1H.5-beta'],
      ['123456789012345.1H.5-beta', '12345678901234567890.1H.5-beta'],
      ['1234567890.12345', '12345678901234567890.1H.5-beta'],
      ['20190126.230843', '12345678901234567890.1H.5-beta'],
      // MNG-6964
      ['1-0.alpha', '1'],
      ['1-0.beta', '1'],
      ['1-0.alpha', '1-0.beta'],
      // MNG-7714
      ['1.0.final-redhat', '1.0-sp1-redhat'],
      ['1.0.final-redhat', '1.0-sp-1-redhat'],
      ['1.0.final-redhat', '1.0-sp.1-redhat'],
    ];
    for (const [a, b] of pairs) ascending('maven', [a, b]);
  });

  it('MNG-7644: 1.0.0.X1 < 1.0.0-X2 and 2-X = 2.0.X = 2.0.0.X', () => {
    for (const x of ['abc', 'alpha', 'a', 'beta', 'b', 'def', 'milestone', 'm', 'RC']) {
      ascending('maven', [`1.0.0.${x}1`, `1.0.0-${x}2`]);
      equal('maven', `2-${x}`, `2.0.${x}`);
      equal('maven', `2-${x}`, `2.0.0.${x}`);
      equal('maven', `2.0.${x}`, `2.0.0.${x}`);
    }
  });
});

describe('PEP 440 order', () => {
  it("follows the PEP's example of every suffix", () =>
    ascending('pep440', [
      '1.dev0',
      '1.0.dev456',
      '1.0a1',
      '1.0a2.dev456',
      '1.0a12.dev456',
      '1.0a12',
      '1.0b1.dev456',
      '1.0b2',
      '1.0b2.post345.dev456',
      '1.0b2.post345',
      '1.0rc1.dev456',
      '1.0rc1',
      '1.0',
      '1.0+abc.5',
      '1.0+abc.7',
      '1.0+5',
      '1.0.post456.dev34',
      '1.0.post456',
      '1.0.15',
      '1.1.dev1',
    ]));
  it('normalizes spellings and epochs', () => {
    equal('pep440', '1.0', '1.0.0');
    equal('pep440', '1.0-alpha1', '1.0a1');
    ascending('pep440', ['2013.10', '1!1.0']);
  });
});

describe('SemVer order (npm, crates.io)', () => {
  it('follows SemVer 2.0.0 §11', () =>
    ascending('semver', [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '2.0.0',
      '2.1.0',
      '2.1.1',
    ]));
  it('ignores build metadata', () => equal('semver', '1.0.0+20130313144700', '1.0.0'));
});

describe('Go module order', () => {
  it('sorts pseudo-versions before the release they precede', () =>
    ascending('go', [
      'v0.0.0-20191109021931-daa7c04131f5',
      'v0.1.0',
      'v1.2.3',
      'v1.2.4-0.20191109021931-daa7c04131f5',
      'v1.2.4',
      'v1.2.5-pre.0.20191109021931-daa7c04131f5',
      'v1.2.5',
    ]));
  it('reads +incompatible, a missing v and the shorthands', () => {
    equal('go', 'v2.0.0+incompatible', 'v2.0.0');
    equal('go', '1.2.3', 'v1.2.3');
    equal('go', 'v1', 'v1.0.0');
    equal('go', 'v1.2', 'v1.2.0');
    assert.ok(!isValidVersion('go', 'v1.2-pre'));
    assert.ok(!isValidVersion('go', 'latest'));
  });
});

describe('hostile versions', () => {
  let seed = 26;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const alphabet = '0123456789.-_~+:abcrpvzRCSNAPSHOT!\u0000é\uD835 ';
  const word = () => Array.from({ length: Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');

  it('never throw, and order every pair one way', () => {
    const words = [...Array.from({ length: 300 }, word), '', 'x'.repeat(MAX_VERSION_LENGTH + 1), `1.${'9'.repeat(5000)}`, '1'.repeat(100_000)];
    for (const scheme of VERSION_SCHEMES) {
      for (let i = 0; i < words.length; i++) {
        const a = words[i];
        const b = words[(i * 7 + 3) % words.length];
        const ab = compareVersions(scheme, a, b);
        const ba = compareVersions(scheme, b, a);
        assert.ok(Number.isFinite(ab), `${scheme} ${JSON.stringify(a)} ${JSON.stringify(b)}`);
        assert.equal(Math.sign(ab) + Math.sign(ba), 0, `${scheme} ${JSON.stringify(a)} ${JSON.stringify(b)}`);
      }
    }
  });

  it('finds over-long, empty and NUL-holding strings invalid, and sorts them before valid versions', () => {
    for (const scheme of VERSION_SCHEMES) {
      for (const v of ['', '1'.repeat(MAX_VERSION_LENGTH + 1), '1.0\u0000'])
        assert.ok(!isValidVersion(scheme, v), `${scheme} ${JSON.stringify(v.slice(0, 10))}`);
      assert.ok(compareVersions(scheme, '1'.repeat(MAX_VERSION_LENGTH + 1), '1.0.0') < 0, scheme);
    }
  });
});
