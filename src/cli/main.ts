// The berth command. The heap check runs first and alone: `berth serve` may
// replace the process with V8 flags (server-heap.ts), and loading the
// commands before that would be done twice (measured: ~270 ms per start).
import './server-heap.js';

await import('./program.js');
