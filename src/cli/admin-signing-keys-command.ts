// berth admin signing-keys: list, rotate and retire the keys Berth signs its
// tokens with (src/auth/signing-key-rotation.ts), on the database itself.
import type { Command } from 'commander';
import { type DatabaseOptions, databaseOptions, secretsKeyText, withStore } from './database-options.js';
import { parseDurationFlag } from './duration-flag.js';
import { addOutputOption, formatTable, type OutputFormat } from './output.js';

/** Refresh tokens live this long (7 days): the keys a rotation replaces verify as long by default, so none breaks. */
const DEFAULT_RETIRE_AFTER = '7d';

export function signingKeysCommand(admin: Command): void {
  const keys = admin
    .command('signing-keys')
    .description('List, rotate and retire the keys Berth signs its tokens with')
    .addHelpText(
      'after',
      `
The newest live key signs tokens; every live key is published in
/.well-known/jwks.json and verifies. Running servers read the keys again every
10 seconds: no restart is needed.

Planned rotation (nothing breaks; the old key verifies for 7 more days):
  berth admin signing-keys rotate --database postgres://berth@db/berth --secrets-key-file /etc/berth/secrets-key

After a leak (every token and refresh token of the old key stops working; people sign in again):
  berth admin signing-keys rotate --retire-old-after 0s …
  # or, with a new key already signing:
  berth admin signing-keys retire KID …`,
    );

  addOutputOption(databaseOptions(keys.command('list').description('List the live keys: id, algorithm, created, retire time, signing or verifying'))).action(
    async (o: DatabaseOptions & { output: OutputFormat }) => {
      const { listSigningKeys } = await import('../auth/signing-key-rotation.js');
      const list = await withStore(o, listSigningKeys);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      else if (o.output === 'id') process.stdout.write(list.map((k) => `${k.kid}\n`).join(''));
      else
        process.stdout.write(
          formatTable(list, [
            { header: 'KID', value: (k) => k.kid },
            { header: 'ALGORITHM', value: (k) => k.algorithm },
            { header: 'ROLE', value: (k) => k.role },
            { header: 'SEALED', value: (k) => (k.sealed ? 'yes' : 'no') },
            { header: 'CREATED', value: (k) => k.createTime },
            { header: 'RETIRES', value: (k) => k.retireTime ?? '-' },
          ]),
        );
    },
  );

  databaseOptions(keys.command('rotate').description('Add a new signing key; the keys it replaces keep verifying until --retire-old-after has passed'))
    .option('--retire-old-after <duration>', 'how long the replaced keys keep verifying (0s: at once, e.g. after a leak)', DEFAULT_RETIRE_AFTER)
    .option('--secrets-key-file <file>', 'the secrets key the servers run with (default: BERTH_SECRETS_KEY); the new key is sealed with it')
    .action(async (o: DatabaseOptions & { retireOldAfter: string; secretsKeyFile?: string }) => {
      const retireAfterMs = parseDurationFlag('--retire-old-after', o.retireOldAfter, 0, 365 * 86_400_000);
      const [{ rotateSigningKey }, { secretsKeyFrom }] = await Promise.all([import('../auth/signing-key-rotation.js'), import('../auth/secret-sealing.js')]);
      const text = secretsKeyText(o.secretsKeyFile);
      const secrets = text === undefined ? undefined : secretsKeyFrom(text);
      const r = await withStore(o, (store) => rotateSigningKey(store, { secrets, retireAfterMs }));
      const lines = [`New signing key ${r.kid}${secrets ? ' (sealed with the secrets key)' : ''}; running servers sign with it within 10 s.`];
      for (const k of r.retiring) lines.push(`${k.kid} verifies until ${k.retireTime}.`);
      if (r.deleted > 0) lines.push(`Deleted ${r.deleted} retired key${r.deleted === 1 ? '' : 's'}.`);
      process.stderr.write(`${lines.join('\n')}\n`);
      process.stdout.write(`${r.kid}\n`);
    });

  databaseOptions(keys.command('retire').description('Retire a key at once: it is deleted, and its tokens stop working within 10 s'))
    .argument('<kid>', 'the key id (berth admin signing-keys list)')
    .action(async (kid: string, o: DatabaseOptions) => {
      const { retireSigningKey } = await import('../auth/signing-key-rotation.js');
      await withStore(o, (store) => retireSigningKey(store, kid));
      process.stderr.write(`Retired and deleted ${kid}; running servers stop accepting its tokens within 10 s.\n`);
    });
}
