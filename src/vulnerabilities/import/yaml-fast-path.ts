// A fast reader for the plain subset of YAML advisory files are written in
// (block mappings and sequences, one-line plain or quoted scalars, comments,
// [] and {}), building the same node tree the `yaml` package builds (its own
// node classes, with offsets for line numbers). General YAML parsing was most
// of an import's time. Anything outside the subset (flow collections, anchors,
// tags, block or multi-line scalars, escapes, duplicate keys, tabs, CR,
// nesting deeper than MAX_NESTING) returns undefined and the caller parses
// the file with the bounded general parser, which also reports every error:
// this path never refuses a file.
import { LineCounter, type Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { MAX_NESTING } from './nesting-limit.js';

interface Line {
  indent: number;
  text: string;
  /** Offset of text[0] in the source. */
  offset: number;
}

class Unsupported extends Error {}
const unsupported = (): never => {
  throw new Unsupported();
};

const KEY = /^([A-Za-z0-9_][A-Za-z0-9_./-]*):(?: +|$)/;

/** The document's root node and line counter, or undefined when the file needs the full parser. */
export function parseSimpleYaml(text: string): { root: Node | null; lines: LineCounter } | undefined {
  if (text.includes('\r') || text.includes('\t')) return undefined;
  const lines = new LineCounter();
  const content: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    lines.addNewLine(start);
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    let indent = 0;
    while (indent < raw.length && raw.charCodeAt(indent) === 32) indent++;
    const rest = raw.slice(indent);
    if (rest !== '' && rest[0] !== '#') {
      if (indent === 0 && (rest.startsWith('---') || rest.startsWith('...') || rest[0] === '%')) return undefined;
      content.push({ indent, text: rest.trimEnd(), offset: start + indent });
    }
    start = end + 1;
  }
  try {
    if (content.length === 0) return { root: null, lines };
    if (content[0].indent !== 0) return undefined;
    const p = new BlockParser(content);
    const root = p.block(0);
    if (p.i !== content.length) return undefined;
    return { root, lines };
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

class BlockParser {
  i = 0;
  /** Collections open: this reader recurses once per level, so it stops where the general parser refuses. */
  private depth = 0;
  constructor(private readonly lines: Line[]) {}

  private isSeqItem(l: Line): boolean {
    return l.text === '-' || l.text.startsWith('- ');
  }

  block(indent: number): Node {
    const l = this.lines[this.i];
    return this.isSeqItem(l) ? this.seq(indent) : this.map(indent);
  }

  /** The value of "key:" with nothing after it: a nested block, a sequence at the key's indent, or null. */
  private nestedValue(indent: number, at: number): Node {
    const next = this.lines[this.i];
    if (next && next.indent > indent) return this.block(next.indent);
    if (next && next.indent === indent && this.isSeqItem(next)) return this.seq(indent);
    return nullScalar(at);
  }

  map(indent: number): YAMLMap {
    if (++this.depth > MAX_NESTING) unsupported();
    const map = new YAMLMap();
    const first = this.lines[this.i];
    const keys = new Set<string>();
    while (this.i < this.lines.length) {
      const l = this.lines[this.i];
      if (l.indent < indent) break;
      if (l.indent > indent || this.isSeqItem(l)) unsupported();
      const m = KEY.exec(l.text);
      if (!m) return unsupported();
      const name = m[1];
      if (keys.has(name)) unsupported();
      keys.add(name);
      const key = new Scalar(name);
      key.range = [l.offset, l.offset + name.length, l.offset + name.length];
      const rest = l.text.slice(m[0].length);
      const restOffset = l.offset + m[0].length;
      this.i++;
      const value = rest === '' || rest[0] === '#' ? this.nestedValue(indent, restOffset) : scalar(rest, restOffset);
      map.items.push(new Pair(key, value));
    }
    map.range = [first.offset, first.offset, first.offset];
    this.depth--;
    return map;
  }

  seq(indent: number): YAMLSeq {
    if (++this.depth > MAX_NESTING) unsupported();
    const seq = new YAMLSeq();
    const first = this.lines[this.i];
    while (this.i < this.lines.length) {
      const l = this.lines[this.i];
      if (l.indent < indent) break;
      if (l.indent > indent) unsupported();
      if (!this.isSeqItem(l)) break;
      let k = 1;
      while (k < l.text.length && l.text[k] === ' ') k++;
      const rest = l.text.slice(k);
      if (rest === '' || rest[0] === '#') {
        this.i++;
        const next = this.lines[this.i];
        seq.items.push(next && next.indent > indent ? this.block(next.indent) : nullScalar(l.offset + 1));
      } else if (KEY.test(rest)) {
        // "- key: value": a mapping whose first line starts after the dash.
        this.lines[this.i] = { indent: indent + k, text: rest, offset: l.offset + k };
        seq.items.push(this.map(indent + k));
      } else if (rest === '-' || rest.startsWith('- ')) {
        unsupported();
      } else {
        this.i++;
        seq.items.push(scalar(rest, l.offset + k));
      }
    }
    seq.range = [first.offset, first.offset, first.offset];
    this.depth--;
    return seq;
  }
}

function nullScalar(offset: number): Scalar {
  const s = new Scalar(null);
  s.range = [offset, offset, offset];
  return s;
}

/** A one-line scalar (or [] / {}); anything else is unsupported. */
function scalar(text: string, offset: number): Node {
  const c = text[0];
  let value: string;
  let end: number;
  if (c === '"') {
    end = text.indexOf('"', 1);
    if (end < 0 || text.slice(1, end).includes('\\')) return unsupported();
    value = text.slice(1, end);
    end++;
  } else if (c === "'") {
    value = '';
    let i = 1;
    for (;;) {
      const q = text.indexOf("'", i);
      if (q < 0) return unsupported();
      value += text.slice(i, q);
      if (text[q + 1] === "'") {
        value += "'";
        i = q + 2;
        continue;
      }
      end = q + 1;
      break;
    }
  } else if (text === '[]' || text === '{}' || /^(\[\]|\{\}) +#/.test(text)) {
    const node = c === '[' ? new YAMLSeq() : new YAMLMap();
    node.range = [offset, offset + 2, offset + 2];
    return node;
  } else {
    if ('[]{}&*!|>%@`#,?:-'.includes(c) && !(c === '-' && text.length > 1 && text[1] !== ' ')) return unsupported();
    const hash = text.indexOf(' #');
    value = (hash >= 0 ? text.slice(0, hash) : text).trimEnd();
    if (value.includes(': ') || value.endsWith(':')) return unsupported();
    end = value.length;
  }
  const tail = text.slice(end).trim();
  if (tail !== '' && !tail.startsWith('#')) return unsupported();
  const s = new Scalar(value);
  s.range = [offset, offset + end, offset + end];
  return s;
}
