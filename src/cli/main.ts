// The berth command.
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// V8's compiled code of the modules a command loads is kept between runs
// (Node's module compile cache, Node >= 22.1; stale entries are detected by a
// checksum of the source), in the user's own cache directory: not a shared
// temporary one another user could have written. Unavailable or unwritable,
// the command runs as before. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
function enableCompileCache(): void {
  try {
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    module.enableCompileCache?.(join(base, 'berth', 'node-compile-cache'));
  } catch {
    // no home directory, or a Node.js without the cache
  }
}

enableCompileCache();
// Imported after the cache is on, so that the program's modules use it.
await import('./program.js');
