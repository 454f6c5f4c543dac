// berth eol: the lifecycle data behind ListEolTags, written straight into the
// server's database the way `berth advisories import` is (--data/--database).
// import reads endoflife.date release files (v1 or v0), all of them before
// writing anything, then writes every product in one transaction: a refused
// file changes nothing, a re-import of the same files changes nothing, a
// changed file replaces that product's releases. map/unmap set the explicit
// image → product mappings.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import type { ProductChange } from '../registry/eol/lifecycle-writer.js';
import type { LifecycleProduct } from '../registry/eol/lifecycle-product.js';
import type { Tx } from '../store/transact.js';
import { ImportError } from '../vulnerabilities/import/normalized-advisory.js';
import { readFileBytes, walkFiles } from '../vulnerabilities/import/source-file.js';
import { checkMapping, parseReleaseFile } from './eol-release-files.js';
import { ProgressLine } from './progress-line.js';

/** Products one run may hold in memory (endoflife.date publishes a few hundred). */
const MAX_PRODUCTS = 10_000;

type LifecycleWriter = typeof import('../registry/eol/lifecycle-writer.js');

interface StoreFlags {
  data: string;
  database?: string;
}

const HELP = `
Reads endoflife.date release files mirrored from the site (no network):
  v1  /api/v1/products/<product>  {schema_version, result:{name, aliases, releases[…]}}
  v0  /api/<product>.json         [{cycle, releaseDate, eol, latest, lts, …}]
      (the product is named by the file: nodejs.json → nodejs)
A directory is walked for *.json. Every file is read and checked before
anything is written; a refused file stops the run with
"file:line: json.path: message", exit status 1, and nothing changes.
Importing the same files again changes nothing; a changed file replaces that
product's releases. The data is global: every organization's tags are
matched against it (ListEolTags, berth images eol).

Repos map to a product by their image name (the last path segment) equal to
the product's name or one of its aliases (acme/node → nodejs, alias node),
or by a mapping set with berth eol map.

Examples:
  berth eol import ./endoflife --data ./data
  berth eol import nodejs.json python.json --database postgres://berth@db/berth
  berth eol map my-node nodejs --data ./data`;

function storeOptions(cmd: Command): Command {
  return cmd
    .option('--data <dir>', "the server's data directory (SQLite file)", './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data');
}

/** Runs `work` in one transaction on the server's store, with the lifecycle writer. */
async function inTransaction<T>(o: StoreFlags, work: (tx: Tx, writer: LifecycleWriter) => Promise<T>): Promise<T> {
  const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
  if (!databaseUrl && !existsSync(join(o.data, 'berth.db'))) throw new Error(`no database in ${o.data} (berth.db): pass the server's --data, or --database`);
  // The store and the writer are loaded here: other commands start without them.
  const [{ openStore }, { transact }, writer] = await Promise.all([
    import('../store/store.js'),
    import('../store/transact.js'),
    import('../registry/eol/lifecycle-writer.js'),
  ]);
  const store = await openStore({ databaseUrl, dataDir: o.data, poolSize: 2 });
  try {
    return await transact(store, (tx) => work(tx, writer));
  } finally {
    await store.close();
  }
}

async function readProducts(paths: string[], line: ProgressLine | undefined): Promise<LifecycleProduct[]> {
  const byName = new Map<string, { product: LifecycleProduct; file: string }>();
  let files = 0;
  for (const p of paths)
    for await (const file of walkFiles(p, (n) => n.endsWith('.json'))) {
      const { bytes } = await readFileBytes(file);
      const product = parseReleaseFile(file, bytes);
      const before = byName.get(product.name);
      if (before) throw new ImportError(file, 0, `product ${product.name} was already read from ${before.file}`);
      if (byName.size >= MAX_PRODUCTS) throw new ImportError(file, 0, `more than ${MAX_PRODUCTS} products in one run`);
      byName.set(product.name, { product, file });
      line?.update(`eol import: ${++files} files read · ${byName.size} products`, 'read');
    }
  return [...byName.values()].map((v) => v.product);
}

export function eolCommand(program: Command): void {
  const group = program.command('eol').description('End-of-life data for tags: import endoflife.date release files, map images to products');

  storeOptions(
    group
      .command('import')
      .description('Import endoflife.date release files (v1 or v0 JSON; a file or a directory per PATH)')
      .argument('<path...>', 'files or directories to import'),
  )
    .option('--progress', 'show progress even when stderr is not a terminal', false)
    .addOption(new Option('-o, --output <format>', 'summary format').choices(['table', 'json']).default('table'))
    .addHelpText('after', HELP)
    .action(async (paths: string[], o: StoreFlags & { progress: boolean; output: 'table' | 'json' }) => {
      for (const p of paths) if (!existsSync(p)) throw new Error(`${p}: no such file or directory`);
      const line = o.progress || process.stderr.isTTY === true ? new ProgressLine() : undefined;
      let products: LifecycleProduct[];
      try {
        products = await readProducts(paths, line);
      } catch (err) {
        line?.clear();
        if (!(err instanceof ImportError)) throw err;
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      line?.clear();
      const counts: Record<ProductChange, number> = { added: 0, changed: 0, unchanged: 0 };
      await inTransaction(o, async (tx, { writeProduct }) => {
        for (const [k] of Object.entries(counts)) counts[k as ProductChange] = 0; // a retried transaction counts again
        for (const [i, p] of products.entries()) {
          counts[await writeProduct(tx, p)]++;
          line?.update(`eol import: ${i + 1}/${products.length} products written`, 'write');
        }
      });
      line?.clear();
      const releases = products.reduce((n, p) => n + p.releases.length, 0);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify({ products: products.length, releases, ...counts }, null, 2)}\n`);
      else
        process.stdout.write(
          `${products.length} products, ${releases} releases read · +${counts.added} added ~${counts.changed} changed =${counts.unchanged} unchanged\n`,
        );
    });

  storeOptions(
    group
      .command('map')
      .description('Map repos named IMAGE (their last path segment) to an endoflife.date product')
      .argument('<image>', 'image name, e.g. my-node')
      .argument('<product>', 'product name, e.g. nodejs'),
  ).action(async (image: string, product: string, o: StoreFlags) => {
    checkMapping(image, product);
    await inTransaction(o, (tx, { setImageProduct }) => setImageProduct(tx, image, product));
    process.stdout.write(`${image} → ${product}\n`);
  });

  storeOptions(
    group.command('unmap').description('Remove the mapping of an image name (it maps by product names and aliases again)').argument('<image>', 'image name'),
  ).action(async (image: string, o: StoreFlags) => {
    checkMapping(image, '');
    await inTransaction(o, (tx, { setImageProduct }) => setImageProduct(tx, image, ''));
    process.stdout.write(`${image} unmapped\n`);
  });
}
