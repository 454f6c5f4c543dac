// A listener's certificate and key, read from the files the operator named
// (`--tls-cert`/`--tls-key`, `--registry-tls-cert`/`--registry-tls-key`) at
// start and again on SIGHUP. Every problem is an error naming the flag and
// the file: at start it stops the server, on a reload the listener keeps the
// certificate it has.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** The flags that named the files, for messages: `--tls-cert`, `--tls-key`. */
  certFlag: string;
  keyFlag: string;
}

export interface LoadedCertificate {
  /** What tls.Server#setSecureContext takes. */
  context: tls.SecureContextOptions;
  subject: string;
  /** When the leaf certificate expires. */
  validTo: Date;
}

/** A certificate chain or key file larger than this is not one. */
const MAX_FILE_BYTES = 1024 * 1024;

function readPem(flag: string, file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new Error(`${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`${flag}: ${file} is larger than ${MAX_FILE_BYTES} bytes`);
  if (!bytes.includes('-----BEGIN ')) throw new Error(`${flag}: ${file} holds no PEM block`);
  return bytes;
}

/** Reads and checks both files; throws an Error that names the flag and file at fault. */
export function loadCertificate(files: TlsFiles): LoadedCertificate {
  const cert = readPem(files.certFlag, files.certFile);
  const key = readPem(files.keyFlag, files.keyFile);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch (err) {
    throw new Error(`${files.certFlag}: ${files.certFile} is not a PEM certificate (${(err as Error).message})`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(`${files.keyFlag}: ${files.keyFile} is not an unencrypted PEM private key (${(err as Error).message})`);
  }
  if (!leaf.checkPrivateKey(privateKey)) {
    throw new Error(`${files.keyFlag}: the key in ${files.keyFile} does not match the certificate in ${files.certFile}`);
  }
  const context = { cert, key };
  try {
    tls.createSecureContext(context); // what the server will do: the chain must load too
  } catch (err) {
    throw new Error(`${files.certFlag}: ${files.certFile} with ${files.keyFile} cannot be used for TLS (${(err as Error).message})`);
  }
  return { context, subject: leaf.subject.replace(/\n/g, ', '), validTo: new Date(leaf.validTo) };
}

/** The pair of files one listener's two flags name; undefined when neither is given, an error when only one is. */
export function tlsFiles(certFile: string | undefined, keyFile: string | undefined, certFlag: string, keyFlag: string): TlsFiles | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new Error(`${certFlag} and ${keyFlag} go together: give both or neither`);
  return { certFile, keyFile, certFlag, keyFlag };
}
