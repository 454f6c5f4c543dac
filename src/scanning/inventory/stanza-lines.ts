// Streaming reader of stanza files (apk's `installed`, dpkg's `status`):
// lines of fields, a blank line between packages. Chunks go in as they come
// off the layer, so a 50 MB database is parsed without being held; a line
// longer than `maxLine` is dropped (counted), never accumulated. Written by
// hand: the two formats are a few lines of specification and no maintained
// library parses them as a stream.

export type Stanza = ReadonlyMap<string, string>;

export interface StanzaFormat {
  /** The key and value of a field line, or undefined for a line that is not one (a continuation, a comment). */
  field(line: string): [string, string] | undefined;
  /** Keys worth keeping; all others are dropped as they pass. */
  keys: ReadonlySet<string>;
}

export class StanzaReader {
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private dropping = false;
  private current = new Map<string, string>();
  /** Lines dropped for being longer than the bound. */
  overlong = 0;

  constructor(
    private readonly format: StanzaFormat,
    private readonly maxLine: number,
    private readonly onStanza: (stanza: Stanza) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  end(): void {
    if (this.pieceBytes > 0 || this.dropping) this.endLine();
    this.flush();
  }

  /** Ends the file mid-way (a bound cut it): the stanza in progress may be cut too, so it is dropped, not read. */
  discard(): void {
    this.pieces = [];
    this.pieceBytes = 0;
    this.dropping = false;
    this.current = new Map();
  }

  private append(part: Buffer): void {
    if (this.dropping || part.length === 0) return;
    if (this.pieceBytes + part.length > this.maxLine) {
      this.dropping = true;
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(part);
    this.pieceBytes += part.length;
  }

  private endLine(): void {
    if (this.dropping) {
      this.overlong++;
      this.dropping = false;
      return;
    }
    const line = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces)).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.pieceBytes = 0;
    if (line.trim() === '') {
      this.flush();
      return;
    }
    const kv = this.format.field(line);
    if (kv && this.format.keys.has(kv[0]) && !this.current.has(kv[0])) this.current.set(kv[0], kv[1]);
  }

  private flush(): void {
    if (this.current.size === 0) return;
    const stanza = this.current;
    this.current = new Map();
    this.onStanza(stanza);
  }
}
