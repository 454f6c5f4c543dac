// The outbound policy every request Berth makes of its own follows (webhook
// deliveries, OIDC discovery and JWKS, identity provider token endpoints):
// address ranges and their IPv6 embeddings, zones, the private allowance of
// --allow-insecure-sinks / --allow-insecure-issuers, and the URL rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issuerPolicy, issuerUrlProblem } from '../../src/auth/issuer-url.js';
import { sinkPolicy, sinkUrlProblem } from '../../src/events/sink-address.js';
import { addressProblem, isLoopbackHost, outboundUrlProblem } from '../../src/outbound/outbound-policy.js';

const strict = sinkPolicy(false);
const relaxed = sinkPolicy(true);

describe('outbound addresses', () => {
  it('refuses metadata, link-local, unspecified, multicast, documentation and reserved addresses whatever is allowed', () => {
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
      // forms the sink check of old missed
      '::ffff:0:169.254.169.254',
      '::ffff:0:a9fe:a9fe',
      '::ffff:0:10.0.0.1',
      '::ffff:0:8.8.8.8',
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:ffff::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2001::1',
      '192.0.0.1',
      '192.0.0.192',
      '192.0.0.170',
      '100::1',
      '192.0.2.10',
      '198.51.100.1',
      '203.0.113.200',
      '2001:db8::1',
      '3fff::1',
      '::8.8.8.8',
    ]) {
      assert.ok(addressProblem(ip, relaxed), `${ip} is refused even when private addresses are allowed`);
      assert.ok(addressProblem(ip, strict), ip);
    }
    assert.match(addressProblem('::ffff:169.254.169.254', relaxed) ?? '', /metadata/);
    assert.match(addressProblem('::ffff:0:a9fe:a9fe', relaxed) ?? '', /metadata/);
    assert.match(addressProblem('192.0.0.192', relaxed) ?? '', /metadata/);
    assert.match(addressProblem('169.254.1.1', relaxed) ?? '', /link-local/);
    assert.match(addressProblem('2001:db8::1', relaxed) ?? '', /documentation/);
    assert.match(addressProblem('2001::1', relaxed) ?? '', /reserved/);
  });

  it('refuses loopback and private addresses unless allowed, naming the flag', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.64.0.1',
      '198.18.0.1',
      'fc00::1',
      'fd12::1',
      '2001:2::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ]) {
      assert.match(addressProblem(ip, strict) ?? '', /--allow-insecure-sinks/, ip);
      assert.match(addressProblem(ip, issuerPolicy(false)) ?? '', /--allow-insecure-issuers/, ip);
      assert.equal(addressProblem(ip, relaxed), undefined, ip);
    }
  });

  it('allows public addresses, and says when something is not an address', () => {
    for (const ip of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      assert.equal(addressProblem(ip, strict), undefined, ip);
    }
    assert.match(addressProblem('example.com', strict) ?? '', /not an IP address/);
  });

  it('knows loopback hosts by name and by address', () => {
    for (const h of ['localhost', 'localhost.', 'api.localhost', '127.0.0.1', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['example.com', 'localhost.example.com', '10.0.0.1', '[::2]']) assert.ok(!isLoopbackHost(h), h);
  });
});

describe('outbound URLs', () => {
  it('allows https, and plain http only to a loopback host when allowed', () => {
    const p = (u: string, policy = strict) => outboundUrlProblem(new URL(u), policy, 'the URL');
    assert.equal(p('https://hooks.example/x'), undefined);
    assert.ok(p('http://hooks.example/x'));
    assert.match(p('http://hooks.example/x', relaxed) ?? '', /not loopback/);
    assert.match(p('http://127.0.0.1:8080/x') ?? '', /https.*--allow-insecure-sinks/);
    assert.equal(p('http://127.0.0.1:8080/x', relaxed), undefined);
    assert.equal(p('http://localhost:8080/x', relaxed), undefined);
    assert.equal(p('http://[::1]:8080/x', relaxed), undefined);
    assert.match(p('https://localhost:8080/x') ?? '', /loopback host/);
    assert.match(p('https://10.1.2.3/x') ?? '', /private address/);
    assert.equal(p('https://10.1.2.3/x', relaxed), undefined);
    assert.match(p('https://[::ffff:0:a9fe:a9fe]/x', relaxed) ?? '', /metadata/);
    assert.match(p('https://u:p@hooks.example/x') ?? '', /user name or password/);
    assert.ok(p('ftp://hooks.example/x', relaxed));
    assert.ok(p('file:///etc/passwd', relaxed));
  });

  it('checks sink URLs the way the API does', () => {
    assert.equal(sinkUrlProblem('https://hooks.example.com/x', false), undefined);
    assert.equal(sinkUrlProblem('http://localhost:8080/', true), undefined);
    assert.match(sinkUrlProblem('http://localhost:8080/', false) ?? '', /https/);
    assert.match(sinkUrlProblem('http://0x7f.1/', false) ?? '', /https/);
    assert.match(sinkUrlProblem('https://2852039166/', true) ?? '', /metadata/, 'numeric forms are read as the address they name');
    assert.match(sinkUrlProblem('', false) ?? '', /required/);
  });

  it('checks issuers with the same rules, whether named or matched by a pattern', () => {
    const strictIssuers = issuerPolicy(false);
    const relaxedIssuers = issuerPolicy(true);
    assert.equal(issuerUrlProblem('https://token.actions.githubusercontent.com', strictIssuers), undefined);
    assert.equal(issuerUrlProblem('https://gitlab.example/realms/ci/', strictIssuers), undefined);
    assert.match(issuerUrlProblem('http://idp.internal:8080', strictIssuers) ?? '', /https.*--allow-insecure-issuers/);
    assert.match(issuerUrlProblem('http://idp.internal:8080', relaxedIssuers) ?? '', /not loopback/);
    assert.match(issuerUrlProblem('http://127.0.0.1:9000', strictIssuers) ?? '', /https/);
    assert.equal(issuerUrlProblem('http://127.0.0.1:9000', relaxedIssuers), undefined);
    assert.equal(issuerUrlProblem('http://[::1]:9000', relaxedIssuers), undefined);
    assert.match(issuerUrlProblem('http://10.0.0.1:9000', relaxedIssuers) ?? '', /not loopback/);
    assert.match(issuerUrlProblem('https://10.0.0.1:9000', strictIssuers) ?? '', /private address/);
    assert.match(issuerUrlProblem('https://169.254.169.254', relaxedIssuers) ?? '', /metadata/);
    assert.match(issuerUrlProblem('http://127.0.0.1.evil.example', relaxedIssuers) ?? '', /not loopback/);
    for (const iss of [
      'https://idp.example/a?x=1',
      'https://idp.example/a?',
      'https://idp.example/a#f',
      'https://user:pw@idp.example',
      'file:///etc/passwd',
      'https://idp.example/a/../admin',
      'https://IDP.example',
      'https://idp.example:443',
      'not a url',
    ]) {
      assert.notEqual(issuerUrlProblem(iss, relaxedIssuers), undefined, iss);
    }
  });
});
