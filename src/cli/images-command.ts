// berth images: the registry's repositories, tags, tag histories, SBOMs and vulnerabilities.
import type { Command } from 'commander';
import { imagesDiffCommand } from './images-diff-command.js';
import { imagesEolCommand } from './images-eol-command.js';
import { imagesHistoryCommand } from './images-history-command.js';
import { imagesReposCommand } from './images-repos-command.js';
import { imagesScansCommand } from './images-scans-command.js';
import { imagesSbomCommand } from './images-sbom-command.js';
import { imagesTagsCommand } from './images-tags-command.js';
import { imagesVulnsCommand } from './images-vulns-command.js';

export function imagesCommand(program: Command): void {
  const images = program
    .command('images')
    .description('Manage registry repositories and tags; show tag histories, SBOMs and vulnerabilities')
    .addHelpText(
      'after',
      '\nRepos and tags are named as the registry names them (ORG/REPO, ORG/REPO:TAG), by name, or by uid.\n\nExamples:\n  berth images repos list\n  berth images tags list --repo acme/nginx\n  berth images history acme/nginx:latest\n  berth images sbom acme/nginx:latest\n  berth images vulns acme/nginx:latest --severity critical,high\n  berth images diff acme/nginx:1.26 acme/nginx:1.27',
    );
  imagesReposCommand(images);
  imagesTagsCommand(images);
  imagesHistoryCommand(images);
  imagesEolCommand(images);
  imagesScansCommand(images);
  imagesSbomCommand(images);
  imagesVulnsCommand(images);
  imagesDiffCommand(images);
}
