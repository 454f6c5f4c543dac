// What `--print-config` hides: the value of a setting named for a secret
// (password, secret, token, credentials, a key) unless the flag takes a file
// or directory (a path is not the secret), and in any value the credentials a
// URL carries (postgres://user:PASS@…, ?password=…, s3 keys as user info).
import type { Option } from 'commander';

export const MASK = '********';

const SECRET_NAME = /(^|-)(password|passwd|secret|secrets|token|credentials?|key|access-key|private-key)(-|$)/;
const SECRET_PARAM = /pass|secret|token|key|credential|signature/i;
const PATH_ARGUMENT = /<(file|dir|path)>/;

/** The URL in `value` with its user info and secret query parameters masked; the value itself when it is no URL. */
function maskUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    // Not parseable, so not shown in parts: whatever sits between :// and @ could be a credential.
    return value.replace(/:\/\/[^/@]*@/, `://${MASK}@`);
  }
  if (u.password) u.password = MASK;
  else if (u.username) u.username = MASK; // a lone user name is a token for some services
  for (const name of [...u.searchParams.keys()]) if (SECRET_PARAM.test(name)) u.searchParams.set(name, MASK);
  return u.toString();
}

/** The value to print for `option` (strings only are masked; switches hold no secret). */
export function maskSetting(option: Option, key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (SECRET_NAME.test(key) && !PATH_ARGUMENT.test(option.flags)) return MASK;
  // libpq's key=value form, in case one is given where a URL usually is.
  return maskUrl(value).replace(/\b(password|sslpassword)=([^\s&]+)/gi, `$1=${MASK}`);
}
