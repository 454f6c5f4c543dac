// berth auth configure-docker: points docker (and podman, skopeo, crane, which
// read the same file) at docker-credential-berth for the registry's host, so
// every pull and push gets a fresh registry token minted with the credentials
// saved by `berth auth login` — no `docker login`, nothing long-lived stored.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Command } from 'commander';
import { registryHostOf, registryHostOfServer } from './api-discovery.js';
import { apiOf, loadCredentials } from './credentials.js';
import { dockerConfigPath, setCredHelper } from './docker-config.js';

/** The helper's name in credHelpers; docker runs `docker-credential-<name>`. */
export const HELPER_NAME = 'berth';
const HELPER_BIN = `docker-credential-${HELPER_NAME}`;

function onPath(bin: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, bin)));
}

/** Whether `berth auth login` saved credentials the helper will find. */
function helperHasCredentials(): boolean {
  try {
    loadCredentials();
    return true;
  } catch {
    return false;
  }
}

export function configureDockerCommand(auth: Command): void {
  auth
    .command('configure-docker')
    .description(`Make docker, podman and skopeo get registry tokens from ${HELPER_BIN} (a credHelpers entry in the docker config)`)
    .option('--registry <host>', 'registry host (default: the one the API announces)')
    .option('--config <file>', 'docker config file (default: $DOCKER_CONFIG/config.json, else ~/.docker/config.json)')
    .option('--credentials <file>', 'credentials file used to ask the API for its registry (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)')
    .addHelpText(
      'after',
      `
Examples:
  berth auth configure-docker
  berth auth configure-docker --registry registry.example.com --config ./docker/config.json`,
    )
    .action(async (o: { registry?: string; config?: string; credentials?: string; api?: string }) => {
      const registry =
        o.registry !== undefined ? registryHostOfServer(o.registry) : await registryHostOf(apiOf(loadCredentials(o.credentials), o.api), undefined);
      const file = o.config ?? dockerConfigPath();
      const replaced = setCredHelper(file, registry, HELPER_NAME);
      process.stderr.write(
        `${file}: credHelpers["${registry}"] = "${HELPER_NAME}"${replaced ? ` (was "${replaced}")` : ''}; ` +
          `docker clients now get tokens for ${registry} from ${HELPER_BIN}\n`,
      );
      if (!onPath(HELPER_BIN)) {
        const bin = join(import.meta.dirname, '..', '..', '..', 'bin', `${HELPER_BIN}.js`);
        process.stderr.write(
          `warning: ${HELPER_BIN} is not on PATH; docker runs it by that name. Install berth with npm install -g, or: ln -s ${bin} <a directory on PATH>/${HELPER_BIN}\n`,
        );
      }
      if (!helperHasCredentials()) {
        process.stderr.write(`warning: no saved credentials: ${HELPER_BIN} uses those of \`berth auth login --credentials <file>\` (or $BERTH_CREDENTIALS)\n`);
      }
    });
}
