// The container image's HEALTHCHECK (scripts/image.js copies it to /app/healthcheck.js):
// node itself asks the API listener's /healthz, as the image has no curl or
// shell. The address is the one the server was told to listen on: the last
// --listen among PID 1's arguments (the entrypoint's, or the one given to
// `podman run`), else BERTH_LISTEN, else the entrypoint's 0.0.0.0:8080.
import { readFileSync } from 'node:fs';

function listenAddress() {
  let found = process.env.BERTH_LISTEN || '0.0.0.0:8080';
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    args.forEach((a, i) => {
      if (a === '--listen' && args[i + 1]) found = args[i + 1];
      else if (a.startsWith('--listen=')) found = a.slice('--listen='.length);
    });
  } catch {
    // No /proc: keep the default.
  }
  return found;
}

const address = listenAddress();
const colon = address.lastIndexOf(':');
const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
const port = address.slice(colon + 1);
// A wildcard address is reached on loopback.
const target = host === '' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
fetch(`http://${target}:${port}/healthz`, { signal: AbortSignal.timeout(4000) }).then(
  (r) => process.exit(r.ok ? 0 : 1),
  () => process.exit(1),
);
