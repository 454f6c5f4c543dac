// The tag kinds ListTags hides by default, as SQL conditions. Written with
// substr/length/rtrim only, which SQLite and PostgreSQL both have with the same
// meaning, so no dialect branch is needed (LIKE is avoided: it is
// case-insensitive on SQLite and case-sensitive on PostgreSQL).
import { sql, type SqlBool } from 'kysely';
import { fixed, type Condition } from '../../list/conditions.js';

const DIGITS = '0123456789';

/** Referrer tags: "sha256-<hex>" (OCI referrers fallback). */
export const notReferrer: Condition = fixed('tags not referrer', () => sql<SqlBool>`substr(name, 1, 7) <> 'sha256-'`);

/** Date tags: "*-20yymmdd", i.e. "-20" and six digits at the end. */
export const notDate: Condition = fixed(
  'tags not date',
  () => sql<SqlBool>`not (length(name) >= 9 and substr(name, length(name) - 8, 3) = '-20' and rtrim(substr(name, length(name) - 5), ${DIGITS}) = '')`,
);

/** Epoch tags: "*-r<N>", i.e. "-r" followed by one or more digits at the end. */
export const notEpoch: Condition = fixed(
  'tags not epoch',
  () =>
    sql<SqlBool>`not (rtrim(name, ${DIGITS}) <> name and length(rtrim(name, ${DIGITS})) >= 2 and substr(rtrim(name, ${DIGITS}), length(rtrim(name, ${DIGITS})) - 1) = '-r')`,
);
