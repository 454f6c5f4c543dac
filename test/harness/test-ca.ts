// A certificate authority made for one test run with the openssl command line,
// and server certificates it signs for 127.0.0.1 and localhost: what a TLS
// test trusts instead of turning verification off.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  dir: string;
  /** The CA certificate, PEM. */
  caPem: string;
  caFile: string;
  /** Issues a server certificate for 127.0.0.1 and localhost with this common name; its files. */
  issue(commonName: string): { certFile: string; keyFile: string };
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'berth-test-ca-'));
  openssl(['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Berth test CA'], dir);
  const caFile = join(dir, 'ca.crt');
  return {
    dir,
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    issue(commonName) {
      const name = commonName.replace(/[^a-z0-9-]/gi, '_');
      writeFileSync(join(dir, `${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
      openssl(['req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${commonName}`], dir);
      openssl(
        [
          'x509',
          '-req',
          '-in',
          `${name}.csr`,
          '-CA',
          'ca.crt',
          '-CAkey',
          'ca.key',
          '-CAcreateserial',
          '-days',
          '1',
          '-extfile',
          `${name}.ext`,
          '-out',
          `${name}.crt`,
        ],
        dir,
      );
      return { certFile: join(dir, `${name}.crt`), keyFile: join(dir, `${name}.key`) };
    },
  };
}
