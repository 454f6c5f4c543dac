// berth events: webhook subscriptions and their delivery logs.
import type { Command } from 'commander';
import { eventsDeliveriesCommand } from './events-deliveries-command.js';
import { eventsSubscriptionsCommand } from './events-subscriptions-command.js';

export function eventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description('Manage webhook subscriptions (where the events of a group are delivered, as signed CloudEvents) and their delivery logs')
    .addHelpText(
      'after',
      '\nExamples:\n  berth events subscriptions create https://hooks.example.com/berth --parent team-a\n  berth events subscriptions list\n  berth events deliveries list <subscription uid>\n  berth events deliveries redeliver <subscription uid> <delivery id>',
    );
  eventsSubscriptionsCommand(events);
  eventsDeliveriesCommand(events);
}
