// docker-credential-berth: the docker credential-helper protocol
// (github.com/docker/docker-credential-helpers) over Berth's own tokens.
// `get` reads a server URL on stdin and answers
// {"ServerURL","Username":"_token","Secret":<a fresh one-hour registry token>},
// minted with the credentials saved by `berth auth login` exactly as
// `berth auth token --audience <host>` does. Nothing is stored: `store` accepts
// only what `get` hands out (docker stores it back after a login) and refuses
// other credentials with a message; `erase` has nothing to remove; `list` is {}.
// Errors go to stdout with exit status 1, as the protocol says; a server other
// than this Berth's registry is "credentials not found in native keychain", so
// the client goes on without credentials.
import { registryHostOfServer, apiDiscovery } from './api-discovery.js';
import { apiOf, fetchToken, loadCredentials } from './credentials.js';

const NOT_FOUND = 'credentials not found in native keychain';
const NO_SERVER = 'no credentials server URL';
const MAX_INPUT = 64 * 1024;
/** The username a Berth token is presented under at /token. */
const TOKEN_USER = '_token';

class HelperError extends Error {}

async function readInput(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk.toString('utf8');
    if (text.length > MAX_INPUT) throw new HelperError(`input larger than ${MAX_INPUT} bytes`);
  }
  return text.trim();
}

async function get(serverUrl: string): Promise<string> {
  if (serverUrl === '') throw new HelperError(NO_SERVER);
  let host: string;
  try {
    host = registryHostOfServer(serverUrl);
  } catch {
    throw new HelperError(NOT_FOUND);
  }
  let creds: ReturnType<typeof loadCredentials>;
  try {
    creds = loadCredentials();
  } catch (err) {
    const why = (err as Error).message.startsWith('not logged in') ? 'not logged in' : (err as Error).message;
    throw new HelperError(`${why}: docker-credential-berth uses the credentials of \`berth auth login --credentials <file>\` (or $BERTH_CREDENTIALS)`);
  }
  const api = apiOf(creds);
  const discovery = await apiDiscovery(api);
  // Without a registry in discovery (an older server, or none reached) the exchange itself says what is wrong.
  if (discovery.registryAudience !== undefined && discovery.registryAudience !== host) throw new HelperError(NOT_FOUND);
  const secret = await fetchToken(creds, api, host, discovery);
  return JSON.stringify({ ServerURL: serverUrl, Username: TOKEN_USER, Secret: secret });
}

function store(input: string): void {
  let creds: { ServerURL?: unknown; Username?: unknown };
  try {
    creds = JSON.parse(input) as typeof creds;
  } catch {
    throw new HelperError('store expects {"ServerURL","Username","Secret"} on stdin');
  }
  if (typeof creds.ServerURL !== 'string' || creds.ServerURL === '') throw new HelperError(NO_SERVER);
  // docker stores back what `get` gave it after a login: a token minted on demand needs no keeping.
  if (creds.Username === TOKEN_USER) return;
  throw new HelperError(
    `docker-credential-berth stores no credentials: it mints tokens from \`berth auth login\`. ` +
      `To log in with a pull token instead, remove "${creds.ServerURL}" from "credHelpers" in the docker config.`,
  );
}

async function run(action: string | undefined): Promise<string> {
  switch (action) {
    case 'get':
      return get(await readInput());
    case 'store':
      store(await readInput());
      return '';
    case 'erase':
      await readInput();
      return ''; // nothing is kept, so nothing to erase
    case 'list':
      return '{}';
    case 'version':
      return 'docker-credential-berth (berth 0.1.0)';
    default:
      throw new HelperError('usage: docker-credential-berth <get|store|erase|list|version> (input on stdin)');
  }
}

run(process.argv[2]).then(
  (out) => {
    if (out !== '') process.stdout.write(`${out}\n`);
  },
  (err: unknown) => {
    process.stdout.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
