// berth events: webhook subscriptions' delivery logs (deliveries).
import type { Command } from 'commander';
import { eventsDeliveriesCommand } from './events-deliveries-command.js';

export function eventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description('Event subscriptions and their delivery logs')
    .addHelpText(
      'after',
      '\nExamples:\n  berth events deliveries list <subscription uid>\n  berth events deliveries redeliver <subscription uid> <delivery id>',
    );
  eventsDeliveriesCommand(events);
}
