// berth events: webhook subscriptions (and their delivery log).
import type { Command } from 'commander';
import { eventsSubscriptionsCommand } from './events-subscriptions-command.js';

export function eventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description('Manage webhook subscriptions: where the events of a group are delivered, as signed CloudEvents')
    .addHelpText(
      'after',
      '\nExamples:\n  berth events subscriptions create https://hooks.example.com/berth --parent team-a\n  berth events subscriptions list',
    );
  eventsSubscriptionsCommand(events);
}
