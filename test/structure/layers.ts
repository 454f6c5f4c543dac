// What each folder under src/ may import: the one table of Berth's layers.
// test/structure/layers.test.ts checks every import against it and
// docs/architecture.md prints it (test/docs/architecture-doc.test.ts). A
// folder may always import its own files; src/gen is generated and checked
// only as a target. A new folder needs a row here before it can be imported.
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  gen: [],
  core: ['gen'],
  store: ['core'],
  list: ['core', 'gen', 'store'],
  outbound: [],
  http: ['core'],
  config: [],
  auth: ['core', 'gen', 'outbound', 'store'],
  ping: ['gen'],
  versions: [],
  events: ['auth', 'core', 'gen', 'list', 'outbound', 'runtime', 'store'],
  iam: ['auth', 'core', 'events', 'gen', 'list', 'runtime', 'store'],
  registry: ['auth', 'core', 'events', 'gen', 'list', 'runtime', 'store'],
  vulnerabilities: ['auth', 'core', 'events', 'gen', 'iam', 'list', 'runtime', 'store', 'versions'],
  libraries: ['auth', 'core', 'gen', 'iam', 'list', 'runtime', 'store', 'versions', 'vulnerabilities'],
  scanning: ['auth', 'core', 'events', 'gen', 'list', 'registry', 'runtime', 'store', 'versions', 'vulnerabilities'],
  server: ['auth', 'core', 'events', 'gen', 'http', 'iam', 'libraries', 'ping', 'registry', 'runtime', 'scanning', 'store', 'vulnerabilities'],
  oci: ['auth', 'core', 'events', 'gen', 'http', 'iam', 'registry', 'runtime', 'store'],
  runtime: ['auth', 'core', 'events', 'http', 'iam', 'list', 'oci', 'registry', 'scanning', 'server', 'store'],
  cli: [
    'auth',
    'config',
    'core',
    'events',
    'gen',
    'http',
    'iam',
    'libraries',
    'oci',
    'registry',
    'runtime',
    'scanning',
    'store',
    'versions',
    'vulnerabilities',
  ],
};

/** Packages only some folders may import: the web framework, the Connect adapter for it, the PostgreSQL driver. */
export const PACKAGE_LAYERS: Readonly<Record<string, readonly string[]>> = {
  fastify: ['http', 'oci', 'server'],
  '@connectrpc/connect-fastify': ['server'],
  pg: ['store'],
};
