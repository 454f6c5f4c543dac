// Loaded with `node --import` into the one Berth process bench/scale.ts asks
// for its query plans (never into a measured one): appends every SELECT the
// process sends to PostgreSQL, with its values, to the file named by
// BERTH_BENCH_SQL_LOG, one JSON line each, so the bench can EXPLAIN the exact
// statements a request ran. It wraps pg's Client.query, the one door of the
// driver Berth's store uses.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BERTH_BENCH_SQL_LOG;
if (file) {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown];
    const text = typeof config === 'string' ? config : config?.text;
    const bound = typeof config === 'object' && config?.values ? config.values : Array.isArray(values) ? values : [];
    if (text && /^\s*select/i.test(text)) appendFileSync(file, `${JSON.stringify({ text, values: bound })}\n`);
    return original.apply(this, args);
  };
}
