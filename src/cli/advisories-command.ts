// berth advisories: the vulnerabilities domain's operator commands. Each
// subcommand lives in its own module and adds itself to this group.
import type { Command } from 'commander';
import { advisoriesImportCommand } from './advisories-import-command.js';

export function advisoriesCommand(program: Command): void {
  const group = program.command('advisories').description('Security advisories: import the published feeds (YAML, OSV, secdb, OpenVEX) into the store');
  advisoriesImportCommand(group);
}
