// berth admin secrets-key change: seals everything sealed with the current
// secrets key with a new one (src/runtime/secrets-key-change.ts), on the
// database itself, with the servers stopped.
import type { Command } from 'commander';
import { readSecretFile } from './secret-file.js';
import { type DatabaseOptions, databaseOptions, secretsKeyText, withStore } from './database-options.js';

export function secretsKeyCommand(admin: Command): void {
  const key = admin.command('secrets-key').description('Change the secrets key that seals private keys and secrets in the database');
  databaseOptions(key.command('change').description('Seal every signing key, client secret and webhook secret with a new secrets key'))
    .requiredOption('--new-key-file <file>', 'the new secrets key (at least 32 characters, e.g. from openssl rand -base64 32); "-" reads stdin')
    .option('--secrets-key-file <file>', 'the current secrets key (default: BERTH_SECRETS_KEY; neither: the values are stored in plaintext now)')
    .addHelpText(
      'after',
      `
Stop every server first: a server still running holds the old key and can no
longer open what was re-sealed. Then start them all with the new key.

Example:
  openssl rand -base64 32 > /etc/berth/secrets-key.new
  berth admin secrets-key change --database postgres://berth@db/berth \\
    --secrets-key-file /etc/berth/secrets-key --new-key-file /etc/berth/secrets-key.new
  mv /etc/berth/secrets-key.new /etc/berth/secrets-key   # then start the servers

Everything is changed in one transaction: if the current key does not open a
value, nothing is changed.`,
    )
    .action(async (o: DatabaseOptions & { newKeyFile: string; secretsKeyFile?: string }) => {
      const [{ secretsKeyFrom }, { changeSecretsKey }] = await Promise.all([import('../auth/secret-sealing.js'), import('../runtime/secrets-key-change.js')]);
      const currentText = secretsKeyText(o.secretsKeyFile);
      const nextText = readSecretFile(o.newKeyFile, 'the new secrets key');
      if (currentText !== undefined && currentText.trim() === nextText.trim()) throw new Error('the new secrets key is the current one: nothing to change');
      const current = currentText === undefined ? undefined : secretsKeyFrom(currentText);
      const next = secretsKeyFrom(nextText);
      const r = await withStore(o, (store) => changeSecretsKey(store, current, next));
      process.stderr.write(
        `Sealed with the new secrets key: ${r.signingKeys} signing key(s), ${r.clientSecrets} identity provider client secret(s), ${r.webhookSecrets} event subscription signing secret(s).\n` +
          'Start every server with the new key (--secrets-key-file or BERTH_SECRETS_KEY).\n',
      );
    });
}
