// One line of progress on stderr: rewritten in place on a terminal, plain
// lines otherwise (a log or a pipe gets a line per change of phase and at
// most one every few seconds between, not a stream of carriage returns).
const TTY_EVERY_MS = 100;
const PLAIN_EVERY_MS = 5000;

export class ProgressLine {
  private last = 0;
  private lastKey = '';
  private shown = false;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** Shows `text`; `key` names the phase: a new key is always shown. */
  update(text: string, key: string): void {
    const now = Date.now();
    const tty = this.out.isTTY === true;
    if (key === this.lastKey && now - this.last < (tty ? TTY_EVERY_MS : PLAIN_EVERY_MS)) return;
    this.last = now;
    this.lastKey = key;
    if (tty) {
      const width = Math.max(20, (this.out.columns || 80) - 1); // 0 when the terminal does not say
      this.out.write(`\r\x1b[2K${text.slice(0, width)}`);
      this.shown = true;
    } else this.out.write(`${text}\n`);
  }

  /** Shows `text` as the final state and ends the line. */
  done(text: string): void {
    if (this.out.isTTY === true) this.out.write(`\r\x1b[2K${text}\n`);
    else this.out.write(`${text}\n`);
    this.shown = false;
  }

  /** Ends a line left open on a terminal (before other output). */
  clear(): void {
    if (this.shown) this.out.write('\r\x1b[2K');
    this.shown = false;
  }
}
