// The one way Berth parses general YAML: the `yaml` package's own
// lexer → parser → composer, with two rules checked at every token, before
// the parser's syntax tree of the document is complete and before anything
// is composed from it. Nesting: the parser's stack holds the collections
// open at the token, so a document nested deeper than MAX_NESTING (as the
// JSON inputs) is refused at its 65th level; 200,000 levels of "[" or "- "
// took hundreds of MB and overflowed the composer's recursion. Aliases:
// none is accepted, so none is ever expanded (the advisory schema has no use
// for them).
import { Composer, type Document, Lexer, LineCounter, Parser } from 'yaml';
import { MAX_NESTING, tooDeep } from './nesting-limit.js';
import { ImportError } from './normalized-advisory.js';

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);
// The lexer marks plain and block scalars with this token; the next token is their text.
const SCALAR_MARK = '\u001f';

/** The one document in `text` (an empty text is an empty document) and its line counter; throws ImportError(file, line, …) on the first error. */
export function parseBoundedYaml(file: string, text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  const at = () => lines.linePos(parser.offset).line;
  function* tokens() {
    lines.addNewLine(0);
    let scalarText = false;
    for (const lexeme of new Lexer().lex(text)) {
      if (!scalarText && lexeme[0] === '*') throw new ImportError(file, at(), 'YAML aliases are not allowed');
      scalarText = lexeme === SCALAR_MARK;
      const done = [...parser.next(lexeme)];
      // A collection is on the stack while it is read: the stack can only hold too many when it is long.
      if (parser.stack.length > MAX_NESTING && parser.stack.filter((t) => COLLECTIONS.has(t.type)).length > MAX_NESTING) {
        throw new ImportError(file, at(), tooDeep());
      }
      yield* done;
    }
    yield* parser.end();
  }
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: true, strict: true, keepSourceTokens: false });
  let doc: Document.Parsed | undefined;
  for (const d of composer.compose(tokens(), true, text.length)) {
    if (doc) throw new ImportError(file, lines.linePos(d.range[0]).line, 'several YAML documents in one file');
    doc = d;
  }
  if (!doc) throw new ImportError(file, 0, 'no YAML document');
  const err = doc.errors[0];
  if (err) throw new ImportError(file, lines.linePos(err.pos[0]).line, err.message.split('\n')[0]);
  return { doc, lines };
}
