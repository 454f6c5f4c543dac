// OSV ranges as intervals (the OSV schema's evaluation: events sorted by
// version, "0" first, each introduced opening what the next fixed or
// last_affected closes), ecosystem keys, and the rows an advisory's newest
// approved event gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { osvIntervals, rangeRows } from '../../src/vulnerabilities/affected/affected-ranges.js';
import { osvEcosystem, packageKey, purlEcosystem } from '../../src/vulnerabilities/affected/ecosystem-keys.js';

describe('osvIntervals', () => {
  it('pairs introduced with the next fixed or last_affected, whatever order the events come in', () => {
    assert.deepEqual(osvIntervals('semver', [{ fixed: '2.5.0' }, { introduced: '2.0.0' }, { introduced: '0' }, { fixed: '1.0.0' }]), [
      { introduced: '', fixed: '1.0.0', lastAffected: '' },
      { introduced: '2.0.0', fixed: '2.5.0', lastAffected: '' },
    ]);
    assert.deepEqual(osvIntervals('go', [{ introduced: '1.2.0' }, { last_affected: '1.4.0' }]), [{ introduced: '1.2.0', fixed: '', lastAffected: '1.4.0' }]);
    assert.deepEqual(osvIntervals('pep440', [{ introduced: '0' }]), [{ introduced: '', fixed: '', lastAffected: '' }]);
  });

  it('sorts by the scheme: dpkg ~ before the release', () => {
    assert.deepEqual(osvIntervals('dpkg', [{ introduced: '2.0-1' }, { fixed: '2.0~rc1-1' }, { introduced: '0' }]), [
      { introduced: '', fixed: '2.0~rc1-1', lastAffected: '' },
      { introduced: '2.0-1', fixed: '', lastAffected: '' },
    ]);
  });

  it('ignores limit and a fixed before any introduced', () => {
    assert.deepEqual(osvIntervals('semver', [{ fixed: '0.5.0' }, { introduced: '1.0.0' }, { limit: '3.0.0' }]), [
      { introduced: '1.0.0', fixed: '', lastAffected: '' },
    ]);
  });
});

describe('ecosystem keys', () => {
  it('maps OSV ecosystems and purls to the keys inventories look up', () => {
    assert.equal(osvEcosystem('Wolfi'), 'apk:wolfi');
    assert.equal(osvEcosystem('Alpine:v3.20'), 'apk:alpine:v3.20');
    assert.equal(osvEcosystem('Debian:12'), 'deb:debian:12');
    assert.equal(osvEcosystem('Ubuntu:22.04:LTS'), 'deb:ubuntu:22.04');
    assert.equal(osvEcosystem('PyPI'), 'pypi');
    assert.equal(osvEcosystem('Go'), 'go');
    assert.equal(osvEcosystem('RubyGems'), 'rubygems');
    assert.equal(purlEcosystem({ type: 'golang', namespace: 'github.com/x', qualifiers: {} }), 'go');
    assert.equal(purlEcosystem({ type: 'deb', namespace: 'debian', qualifiers: { distro: 'debian-12' } }), 'deb:debian:12');
    assert.equal(packageKey('pypi', 'Zope.Interface'), 'zope-interface');
  });
});

describe('rangeRows', () => {
  const target = { ecosystem: 'apk:wolfi', package: 'openssl' };
  const record = { ...target, intervals: [{ introduced: '3.0.0-r0', fixed: '3.3.2-r1', lastAffected: '' }] };
  it('follows the newest approved event', () => {
    assert.deepEqual(
      rangeRows(undefined, target, { kind: 'fixed', fixedVersion: '1.2-r1' }).map((r) => [r.status, r.introduced, r.fixed]),
      [['affected', '', '1.2-r1']],
    );
    assert.deepEqual(
      rangeRows(undefined, target, { kind: 'false-positive-determination' }).map((r) => r.status),
      ['not-affected'],
    );
    assert.deepEqual(
      rangeRows(undefined, target, { kind: 'fix-not-planned' }).map((r) => [r.status, r.fixed]),
      [['wont-fix', '']],
    );
    assert.deepEqual(
      rangeRows(undefined, target, { kind: 'pending-upstream-fix' }).map((r) => [r.status, r.fixed]),
      [['affected', '']],
    );
    assert.deepEqual(rangeRows(undefined, target, undefined), []);
  });
  it("keeps a record's ranges unless a false positive says otherwise; a withdrawn record has none", () => {
    assert.deepEqual(
      rangeRows(record, undefined, { kind: 'fixed', fixedVersion: '3.3.2-r1' }).map((r) => [r.status, r.introduced, r.fixed]),
      [['affected', '3.0.0-r0', '3.3.2-r1']],
    );
    assert.deepEqual(
      rangeRows(record, undefined, { kind: 'false-positive-determination' }).map((r) => r.status),
      ['not-affected'],
    );
    assert.deepEqual(rangeRows({ ...record, withdrawn: true }, undefined, { kind: 'fixed', fixedVersion: '1' }), []);
    assert.deepEqual(rangeRows({ ecosystem: 'rubygems', package: 'rails', intervals: [] }, undefined, { kind: 'detection' }), []);
  });
});
