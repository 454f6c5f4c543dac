// Alpine package version order, as apk-tools' src/version.c defines it:
// digit{.digit}...{letter}{_suffix{#}}...{~hash}{-r#}, where _alpha _beta
// _pre _rc sort before the release and _cvs _svn _git _hg _p after it; a
// number with a leading zero compares as a string (the Gentoo rule). A
// string that stops following that grammar still compares: the tokens read
// so far decide, and an invalid token sorts lowest. Written by hand: no
// maintained JavaScript library implements apk's order.

enum Token {
  InitialDigit,
  Digit,
  Letter,
  Suffix,
  SuffixNo,
  CommitHash,
  RevisionNo,
  End,
  Invalid,
}

/** Suffix ranks: the pre-release ones below NONE (the release), the rest above. */
const SUFFIXES: Readonly<Record<string, number>> = { alpha: 1, beta: 2, pre: 3, rc: 4, cvs: 6, svn: 7, git: 8, hg: 9, p: 10 };
const SUFFIX_NONE = 5;

interface TokenState {
  token: Token;
  /** The token's text: digits without the dot, the letter, the suffix word, the hash. */
  value: string;
  suffix: number;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  digits(t: TokenState): void {
    const start = this.i;
    while (this.i < this.s.length && isDigit(this.s.charCodeAt(this.i))) this.i++;
    t.value = this.s.slice(start, this.i);
    if (t.value === '') t.token = Token.Invalid;
  }

  first(): TokenState {
    const t: TokenState = { token: Token.InitialDigit, value: '', suffix: 0 };
    this.digits(t);
    return t;
  }

  next(t: TokenState): void {
    if (this.i >= this.s.length) {
      t.token = Token.End;
      return;
    }
    const c = this.s[this.i];
    if (c >= 'a' && c <= 'z') {
      if (t.token > Token.Digit) {
        invalid(t);
        return;
      }
      t.value = c;
      t.token = Token.Letter;
      this.i++;
    } else if (c === '.' || (c >= '0' && c <= '9')) {
      if (c === '.') {
        if (t.token > Token.Digit) {
          invalid(t);
          return;
        }
        this.i++;
      }
      if (t.token === Token.InitialDigit || t.token === Token.Digit) t.token = Token.Digit;
      else if (t.token === Token.Suffix) t.token = Token.SuffixNo;
      else {
        invalid(t);
        return;
      }
      this.digits(t);
    } else if (c === '_') {
      if (t.token > Token.SuffixNo) {
        invalid(t);
        return;
      }
      this.i++;
      const start = this.i;
      while (this.i < this.s.length && this.s[this.i] >= 'a' && this.s[this.i] <= 'z') this.i++;
      t.value = this.s.slice(start, this.i);
      const rank = Object.hasOwn(SUFFIXES, t.value) ? SUFFIXES[t.value] : 0;
      if (rank === 0) {
        invalid(t);
        return;
      }
      t.suffix = rank;
      t.token = Token.Suffix;
    } else if (c === '~') {
      if (t.token >= Token.CommitHash) {
        invalid(t);
        return;
      }
      this.i++;
      const start = this.i;
      while (this.i < this.s.length && /[0-9a-f]/.test(this.s[this.i])) this.i++;
      t.value = this.s.slice(start, this.i);
      if (t.value === '') {
        invalid(t);
        return;
      }
      t.token = Token.CommitHash;
    } else if (c === '-') {
      if (t.token >= Token.RevisionNo || this.s[this.i + 1] !== 'r') {
        invalid(t);
        return;
      }
      this.i += 2;
      t.token = Token.RevisionNo;
      this.digits(t);
    } else invalid(t);
  }
}

function invalid(t: TokenState): void {
  t.token = Token.Invalid;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Numbers of any length, without parsing: longer (after leading zeros) is larger. */
function compareNumbers(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareTokens(a: TokenState, b: TokenState): number {
  switch (a.token) {
    case Token.Digit:
      if (a.value[0] === '0' || b.value[0] === '0') return compareStrings(a.value, b.value);
      return compareNumbers(a.value, b.value);
    case Token.InitialDigit:
    case Token.SuffixNo:
    case Token.RevisionNo:
      return compareNumbers(a.value, b.value);
    case Token.Letter:
      return compareStrings(a.value, b.value);
    case Token.Suffix:
      return Math.sign(a.suffix - b.suffix);
    default:
      return compareStrings(a.value, b.value);
  }
}

/** apk-tools' apk_version_validate. */
export function isValidApkVersion(v: string): boolean {
  const r = new Reader(v);
  const t = r.first();
  while (t.token < Token.End) r.next(t);
  return t.token === Token.End;
}

/**
 * apk-tools' apk_version_compare (−1, 0, 1); with `fuzzy`, `b` is a prefix
 * that equals every longer version starting with it (the `~` operator).
 */
export function compareApkVersions(a: string, b: string, fuzzy = false): number {
  const ra = new Reader(a);
  const rb = new Reader(b);
  const ta = ra.first();
  const tb = rb.first();
  while (ta.token === tb.token && ta.token < Token.End) {
    const r = compareTokens(ta, tb);
    if (r !== 0) return r;
    ra.next(ta);
    rb.next(tb);
  }
  if (ta.token === tb.token) return 0;
  if (tb.token === Token.End && fuzzy) return 0;
  // The leading parts are equal: the longer version is greater, unless what follows is a pre-release suffix.
  if (ta.token === Token.Suffix && ta.suffix < SUFFIX_NONE) return -1;
  if (tb.token === Token.Suffix && tb.suffix < SUFFIX_NONE) return 1;
  if (ta.token > tb.token) return -1;
  if (tb.token > ta.token) return 1;
  return 0;
}
