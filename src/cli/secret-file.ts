// Secrets given to the CLI come from a file or stdin, never from the command
// line, where `ps` and shell history would show them.
import { readFileSync } from 'node:fs';

const MAX_SECRET_BYTES = 4096;

/** The secret in `file` ("-": stdin), without its final newline; `what` names it in errors ("the client secret"). */
export function readSecretFile(file: string, what: string, emptyHint = ''): string {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} from ${file === '-' ? 'stdin' : file}: ${(err as Error).message}`);
  }
  if (Buffer.byteLength(text) > MAX_SECRET_BYTES) throw new Error(`${what} file is over ${MAX_SECRET_BYTES} bytes`);
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new Error(`${what} file is empty${emptyHint}`);
  return secret;
}
