// `berth serve` runs with a young generation of bounded size: V8's default
// lets each semi-space grow to tens of MiB, which the server's short-lived
// request garbage fills before each scavenge, so pauses are longer and the
// memory stays resident. Too small is worse in another way: objects of the
// requests in flight live through a scavenge that comes every ~17 ms (8 MiB)
// and get promoted, so the old generation fills and needs a mark-compact
// (10–15 ms pause) every second or two; at 16 MiB scavenges come half as
// often and each is cheaper. Measured (16 connections, 100,000 repos,
// PostgreSQL list 50, scavenge time per 5 s): default 21 ms p99; 8 MiB
// 12–14 ms, 430–460 ms of scavenges; 16 MiB 9.3–10.5 ms, 130–150 ms of
// scavenges, +5 % throughput; 32 MiB 11 ms. SQLite: unchanged within noise.
// Idle RSS stays low: once serving, a full collection shrinks the young
// generation again (src/core/memory-release.ts).
//
// V8 fixes the heap's layout when it starts, so the flag cannot be set from
// inside: the process replaces itself (execve: same pid, same open files and
// signal handling for whoever started it) once, before anything else runs.
// A --max-semi-space-size given by the operator (command line or
// NODE_OPTIONS) is left as it is.
const FLAG = '--max-semi-space-size';
const SEMI_SPACE_MIB = 16;

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith(FLAG));
if (process.argv[2] === 'serve' && !given && typeof process.execve === 'function') {
  try {
    process.execve(process.execPath, [process.execPath, `${FLAG}=${SEMI_SPACE_MIB}`, ...process.execArgv, ...process.argv.slice(1)], process.env);
  } catch (err) {
    // Not replaced (the binary moved, a seccomp policy): serve on V8's defaults rather than not at all.
    process.stderr.write(`berth: serving without ${FLAG}=${SEMI_SPACE_MIB} (could not restart: ${(err as Error).message})\n`);
  }
}
