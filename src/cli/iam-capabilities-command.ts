// berth iam capabilities list: every capability a role can hold, by enum name
// and friendly name, with the built-in roles that include it. Read from the
// proto and the built-in role table compiled into the CLI, so it needs no
// server (and no login).
import type { Command } from 'commander';
import { addOutputOption, formatTable, type Column, type OutputFormat } from './output.js';

interface CapabilityInfo {
  name: string;
  friendlyName: string;
  builtinRoles: string[];
}

const COLUMNS: readonly Column<CapabilityInfo>[] = [
  { header: 'NAME', value: (c) => c.name },
  { header: 'FRIENDLY NAME', value: (c) => c.friendlyName },
  { header: 'BUILT-IN ROLES', value: (c) => c.builtinRoles.join(',') },
];

/** The grantable capabilities in enum order; internal-only ones no role can hold are left out. */
export async function capabilityTable(): Promise<CapabilityInfo[]> {
  // The proto's capability list is loaded here: other commands start without it.
  const [{ allCapabilities }, { BUILTIN_ROLES }] = await Promise.all([import('../auth/capability-names.js'), import('../iam/roles/builtin-roles.js')]);
  return allCapabilities()
    .filter((c) => !c.internal)
    .map((c) => ({
      name: c.enumName,
      friendlyName: c.friendlyName,
      builtinRoles: BUILTIN_ROLES.filter((r) => r.capabilities.includes(c.capability)).map((r) => r.name),
    }));
}

export function iamCapabilitiesCommand(iam: Command): void {
  const capabilities = iam
    .command('capabilities')
    .description('The capabilities roles are made of')
    .addHelpText('after', '\nExamples:\n  berth iam capabilities list\n  berth iam capabilities list -o json');
  addOutputOption(
    capabilities
      .command('list')
      .description('List every capability a role can hold, its friendly name and the built-in roles that include it')
      .addHelpText(
        'after',
        '\nEither name is accepted wherever a capability is asked for, e.g.\n  berth iam roles create repo-reader --capabilities repo.list,CAP_TAG_LIST',
      ),
  ).action(async (o: { output: OutputFormat }) => {
    const items = await capabilityTable();
    if (o.output === 'json') process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    else if (o.output === 'id') process.stdout.write(items.map((c) => `${c.name}\n`).join(''));
    else process.stdout.write(formatTable(items, COLUMNS));
  });
}
