// berth images: the registry's repositories and tags.
import type { Command } from 'commander';
import { imagesReposCommand } from './images-repos-command.js';
import { imagesTagsCommand } from './images-tags-command.js';

export function imagesCommand(program: Command): void {
  const images = program
    .command('images')
    .description('Manage registry repositories and tags')
    .addHelpText('after', '\nExamples:\n  berth images repos list\n  berth images tags list --repo <repo uid>');
  imagesReposCommand(images);
  imagesTagsCommand(images);
}
