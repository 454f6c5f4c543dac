// How a statement is handed to pg: as a Query of our own, answered through
// its callback, whose rows are built by one generated function per column list.
//
// - The callback, not client.query's promise: in a running server V8 allocated
//   the callback that promise's executor makes straight into the old
//   generation (allocation-site pretenuring), and from there it kept every
//   answered statement, its rows and their strings alive until the next full
//   collection (8 MB promoted per scavenge under a list load, 0.2 MB without).
// - The text given as a string: with a config object, pg copies it through
//   property descriptors for every statement.
// - The rows: pg fills each row by computed-key stores in one function for
//   every table, which V8 sees as megamorphic; an object literal per column
//   list has one shape and is built in one step, each value parsed in place.
//   The generated code holds only the column names the server sent, each
//   through JSON.stringify. This uses pg's Query and Result internals
//   (_result, _results, fields, _parsers), pinned by the lockfile and covered
//   by the PostgreSQL suite. Figures in docs/performance.md.
import pg from 'pg';

type Parser = (raw: string) => unknown;
type RowBuilder = (raw: Array<string | null>, parsers: Parser[]) => Record<string, unknown>;

interface PgResult {
  fields: pg.FieldDef[];
  _parsers: Parser[] | undefined;
  _types: { getTypeParser(oid: number, format: string): Parser } | undefined;
}
const PgResultClass = (pg as unknown as { Result: new (rowMode: string | undefined, types: unknown) => PgResult }).Result;

const builders = new Map<string, RowBuilder>();
/** Column lists are the statements' own, a few hundred at most; the bound is only a backstop. */
const MAX_BUILDERS = 4096;

function compile(names: string[]): RowBuilder {
  const props = names.map((n, i) => {
    // A literal "__proto__" key would set the prototype: that one is computed.
    const key = n === '__proto__' ? `[${JSON.stringify(n)}]` : JSON.stringify(n);
    return `${key}: r[${i}] === null ? null : p[${i}](r[${i}])`;
  });
  return new Function(`return function row(r, p) { return { ${props.join(', ')} }; };`)() as RowBuilder;
}

function builderFor(fields: pg.FieldDef[]): RowBuilder {
  let key = fields[0].name;
  for (let i = 1; i < fields.length; i++) key += `\u0000${fields[i].name}`; // PostgreSQL names cannot hold NUL
  let builder = builders.get(key);
  if (!builder) {
    builder = compile(fields.map((f) => f.name));
    if (builders.size >= MAX_BUILDERS) builders.clear();
    builders.set(key, builder);
  }
  return builder;
}

class RowsResult extends PgResultClass {
  private build: RowBuilder | undefined;

  addFields(fields: pg.FieldDef[]): void {
    this.fields = fields;
    const types = this._types ?? (pg.types as unknown as NonNullable<PgResult['_types']>); // the client sets its own before any row
    this._parsers = fields.map((f) => types.getTypeParser(f.dataTypeID, f.format || 'text'));
    this.build = fields.length > 0 ? builderFor(fields) : undefined;
  }

  parseRow(raw: Array<string | null>): Record<string, unknown> {
    return this.build ? this.build(raw, this._parsers as Parser[]) : {};
  }
}

class Statement extends pg.Query {
  constructor(text: string, values: unknown[], name: string | undefined, callback: (err: Error | undefined, result: pg.QueryResult) => void) {
    super(text, values, callback as never);
    if (name !== undefined) (this as unknown as { name: string }).name = name;
    const self = this as unknown as { types: unknown; _result: unknown; _results: unknown };
    // Only the first result: a later one (several statements in one simple query, as in migrations) is pg's own.
    self._result = new RowsResult(undefined, self.types);
    self._results = self._result;
  }
}

/** Runs one statement on `client` (named: prepared once per connection). */
export function submit(client: pg.PoolClient, text: string, values: unknown[], name?: string): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(new Statement(text, values, name, (err, result) => (err ? reject(err) : resolve(result))) as never);
  });
}
