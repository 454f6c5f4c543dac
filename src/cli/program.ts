// The berth command's program: every subcommand, parsed from the command line.
import { Command } from 'commander';
import { adminCommand } from './admin-command.js';
import { advisoriesCommand } from './advisories-command.js';
import { authCommand } from './auth-command.js';
import { eolCommand } from './eol-command.js';
import { eventsCommand } from './events-command.js';
import { iamCommand } from './iam-command.js';
import { imagesCommand } from './images-command.js';
import { librariesCommand } from './libraries-command.js';
import { registryCommand } from './registry-command.js';
import { serveCommand } from './serve-command.js';

const program = new Command();
program
  .name('berth')
  .description(
    'Berth: a self-hosted container platform. Run the server, get tokens, manage IAM, images and event subscriptions, collect registry garbage, import security advisories and library catalogues.',
  )
  .version('0.1.0')
  .showHelpAfterError();
serveCommand(program);
authCommand(program);
iamCommand(program);
imagesCommand(program);
eventsCommand(program);
registryCommand(program);
advisoriesCommand(program);
librariesCommand(program);
eolCommand(program);
adminCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`berth: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
