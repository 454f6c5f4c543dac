// berth libraries: the library catalogue's operator commands.
import type { Command } from 'commander';
import { librariesImportCommand } from './libraries-import-command.js';

export function librariesCommand(program: Command): void {
  const group = program.command('libraries').description('Library catalogue: import a mirror of Python, Java and npm packages');
  librariesImportCommand(group);
}
