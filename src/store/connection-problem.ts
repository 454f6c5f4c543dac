// Why a PostgreSQL database could not be opened, in words an operator acts
// on: a wrong password, a missing database or a server not listening is not
// a "migration failure". Names the host, database and user, never the
// password (the URL is rebuilt without it).

/** SQLSTATEs and socket codes that mean the connection itself failed, with what to say. */
const PROBLEMS: Record<string, (at: Target, detail: string) => string> = {
  '28P01': (at) =>
    `PostgreSQL at ${at.host} refused the password of user "${at.user}" (database ${at.database}): check the password in --database or BERTH_DATABASE_URL`,
  '28000': (at, detail) => `PostgreSQL at ${at.host} does not let user "${at.user}" connect to database ${at.database}: ${detail}`,
  '3D000': (at) => `PostgreSQL at ${at.host} has no database ${at.database}: create it (createdb ${at.database}) or correct --database`,
  ECONNREFUSED: (at) => `cannot connect to PostgreSQL at ${at.host} (connection refused): is it running and listening there? (database ${at.database})`,
  ENOTFOUND: (at) => `cannot connect to PostgreSQL at ${at.host}: no such host (database ${at.database})`,
  EAI_AGAIN: (at) => `cannot connect to PostgreSQL at ${at.host}: its name does not resolve now (database ${at.database})`,
  EHOSTUNREACH: (at) => `cannot connect to PostgreSQL at ${at.host}: host unreachable (database ${at.database})`,
  ETIMEDOUT: (at) => `cannot connect to PostgreSQL at ${at.host}: no answer (database ${at.database})`,
};

interface Target {
  host: string;
  database: string;
  user: string;
}

function targetOf(databaseUrl: string): Target {
  const u = new URL(databaseUrl);
  return {
    host: u.port ? u.host : `${u.hostname}:5432`,
    database: decodeURIComponent(u.pathname.slice(1)) || '(default)',
    user: decodeURIComponent(u.username),
  };
}

/** An Error saying why connecting to `databaseUrl` failed; undefined when `err` is not a connection failure. */
export function connectionProblem(err: unknown, databaseUrl: string): Error | undefined {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const at = targetOf(databaseUrl);
  const password = decodeURIComponent(new URL(databaseUrl).password);
  let detail = typeof e.message === 'string' ? e.message : String(err);
  if (password !== '') detail = detail.split(password).join('***');
  const say = typeof e.code === 'string' ? PROBLEMS[e.code] : undefined;
  if (say) return new Error(say(at, detail), { cause: err });
  // pg's own connection timeout (PG_CONNECT_TIMEOUT_MS in store.ts).
  if (/timeout/i.test(detail) && /connect/i.test(detail)) {
    return new Error(`cannot connect to PostgreSQL at ${at.host}: no answer in time (database ${at.database})`, { cause: err });
  }
  return undefined;
}
