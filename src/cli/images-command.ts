// berth images: the registry's repositories, tags and tag histories.
import type { Command } from 'commander';
import { imagesHistoryCommand } from './images-history-command.js';
import { imagesReposCommand } from './images-repos-command.js';
import { imagesScansCommand } from './images-scans-command.js';
import { imagesTagsCommand } from './images-tags-command.js';

export function imagesCommand(program: Command): void {
  const images = program
    .command('images')
    .description('Manage registry repositories and tags; show tag histories')
    .addHelpText(
      'after',
      '\nRepos and tags are named as the registry names them (ORG/REPO, ORG/REPO:TAG), by name, or by uid.\n\nExamples:\n  berth images repos list\n  berth images tags list --repo acme/nginx\n  berth images history acme/nginx:latest',
    );
  imagesReposCommand(images);
  imagesTagsCommand(images);
  imagesHistoryCommand(images);
  imagesScansCommand(images);
}
