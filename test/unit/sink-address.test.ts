// The address rules the delivery worker applies to every address a sink's
// host resolves to (sinkAddressProblem), which no API call reaches for a
// name: IPv4 ranges and their IPv6 embeddings, zones, and the private
// allowance of --allow-insecure-sinks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, sinkAddressProblem, sinkUrlProblem } from '../../src/events/sink-address.js';

describe('sink addresses', () => {
  it('refuses metadata, link-local, unspecified, multicast and reserved addresses whatever is allowed', () => {
    for (const ip of [
      '169.254.169.254',
      'fd00:ec2::254',
      '169.254.0.1',
      'fe80::1',
      'fe80::1%eth0',
      '[fe80::1]',
      '0.0.0.0',
      '0.1.2.3',
      '::',
      '224.0.0.251',
      'ff02::fb',
      '255.255.255.255',
      '240.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
    ]) {
      assert.ok(sinkAddressProblem(ip, true), `${ip} is refused even when private addresses are allowed`);
      assert.ok(sinkAddressProblem(ip, false), ip);
    }
    assert.match(sinkAddressProblem('::ffff:169.254.169.254', true) ?? '', /metadata/);
    assert.match(sinkAddressProblem('169.254.1.1', true) ?? '', /link-local/);
  });

  it('refuses loopback and private addresses unless allowed', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.64.0.1',
      'fc00::1',
      'fd12::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ]) {
      assert.match(sinkAddressProblem(ip, false) ?? '', /--allow-insecure-sinks/, ip);
      assert.equal(sinkAddressProblem(ip, true), undefined, ip);
    }
  });

  it('allows public addresses, and says when something is not an address', () => {
    for (const ip of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) assert.equal(sinkAddressProblem(ip, false), undefined, ip);
    assert.match(sinkAddressProblem('example.com', false) ?? '', /not an IP address/);
  });

  it('knows loopback hosts by name and by address', () => {
    for (const h of ['localhost', 'localhost.', 'api.localhost', '127.0.0.1', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['example.com', 'localhost.example.com', '10.0.0.1', '[::2]']) assert.ok(!isLoopbackHost(h), h);
  });

  it('checks sink URLs the way the API does', () => {
    assert.equal(sinkUrlProblem('https://hooks.example.com/x', false), undefined);
    assert.equal(sinkUrlProblem('http://localhost:8080/', true), undefined);
    assert.match(sinkUrlProblem('http://localhost:8080/', false) ?? '', /https/);
    assert.match(sinkUrlProblem('http://0x7f.1/', false) ?? '', /https/);
    assert.match(sinkUrlProblem('https://2852039166/', true) ?? '', /metadata/, 'numeric forms are read as the address they name');
    assert.match(sinkUrlProblem('', false) ?? '', /required/);
  });
});
