// Where a JSON text stops being JSON: V8's JSON.parse message gives no
// position for most errors, and a refused file must name its line. Run only
// after JSON.parse failed; a small scanner, iterative (an explicit stack),
// so hostile nesting cannot exhaust the call stack.

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/** The offset of the first character that makes `text` invalid JSON (text.length when it ends too early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  const match = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };
  // Each frame: what container we are in and whether a value or a separator comes next.
  const stack: Array<'[' | '{'> = [];
  let expectValue = true;
  for (;;) {
    skip();
    if (i >= text.length) return stack.length === 0 && !expectValue ? i : text.length;
    const c = text[i];
    if (expectValue) {
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        skip();
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          expectValue = false;
        } else if (c === '{') {
          if (!match(STRING)) return i;
          skip();
          if (text[i] !== ':') return i;
          i++;
        }
        continue;
      }
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word) i += word.length;
      if (word || (c === '"' ? match(STRING) : match(NUMBER))) {
        expectValue = false;
        continue;
      }
      return i;
    }
    const top = stack.at(-1);
    if (top === undefined) return i; // text after the value
    if (c === ',') {
      i++;
      if (top === '{') {
        skip();
        if (!match(STRING)) return i;
        skip();
        if (text[i] !== ':') return i;
        i++;
      }
      expectValue = true;
    } else if (c === (top === '{' ? '}' : ']')) {
      stack.pop();
      i++;
    } else return i;
  }
}

/** The 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
