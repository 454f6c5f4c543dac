// Preloaded into a berth process (node --import) by tests of what a command
// loads: records the URL of every module the process loads (ESM and
// CommonJS, through Node's synchronous module hooks) and, at exit, writes
// them one per line to the file named by BERTH_TEST_LOADED_MODULES.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.BERTH_TEST_LOADED_MODULES;
const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  if (out) writeFileSync(out, [...loaded].map((u) => `${u}\n`).join(''));
});
