// Maven version order: Maven's ComparableVersion (maven-artifact), ported
// from its source. A version is a list of items split at '.', '-' and at
// digit/letter changes; '-' (and a change to letters) opens a sub-list;
// trailing zeros and empty qualifiers are trimmed (1 = 1.0 = 1-0 = 1.ga);
// known qualifiers order alpha < beta < milestone < rc = cr < snapshot <
// "" = ga = final = release < sp, unknown ones after them lexically; a1, b1,
// m1 mean alpha-1, beta-1, milestone-1. Written by hand: no maintained
// JavaScript library implements ComparableVersion.

type Item =
  | { kind: 'number'; digits: string }
  | { kind: 'string'; value: string }
  | { kind: 'combination'; string: StringItem; digits: Item }
  | { kind: 'list'; items: Item[] };
type StringItem = { kind: 'string'; value: string };
type ListItem = { kind: 'list'; items: Item[] };

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const RELEASE_QUALIFIERS = new Set(['ga', 'final', 'release']);
const RELEASE_INDEX = String(QUALIFIERS.indexOf(''));

function stringItem(value: string, followedByDigit: boolean): StringItem {
  let v = value;
  if (followedByDigit && v.length === 1) v = v === 'a' ? 'alpha' : v === 'b' ? 'beta' : v === 'm' ? 'milestone' : v;
  return { kind: 'string', value: v === 'cr' ? 'rc' : v };
}

function comparableQualifier(q: string): string {
  if (RELEASE_QUALIFIERS.has(q)) return RELEASE_INDEX;
  const i = QUALIFIERS.indexOf(q);
  return i === -1 ? `${QUALIFIERS.length}-${q}` : String(i);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isNull(item: Item): boolean {
  switch (item.kind) {
    case 'number':
      return item.digits === '0';
    case 'string':
      return item.value === '';
    case 'combination':
      return false;
    case 'list':
      return item.items.length === 0;
  }
}

function numberItem(digits: string): Item {
  return { kind: 'number', digits: digits.replace(/^0+/, '') || '0' };
}

function parseItem(isCombination: boolean, isDigit: boolean, buf: string): Item {
  if (isCombination) {
    const s = buf.replaceAll('-', '');
    const at = s.search(/\d/);
    const index = at < 0 ? 0 : at;
    return { kind: 'combination', string: stringItem(s.slice(0, index), true), digits: parseItem(false, true, s.slice(index)) };
  }
  if (isDigit) return numberItem(buf);
  return stringItem(buf, false);
}

/** item.compareTo(other); other undefined is Java's null (the shorter list's missing item). */
function compare(item: Item, other: Item | undefined): number {
  switch (item.kind) {
    case 'number': {
      if (!other) return item.digits === '0' ? 0 : 1;
      if (other.kind !== 'number') return 1;
      const a = item.digits;
      const b = other.digits;
      return a.length !== b.length ? Math.sign(a.length - b.length) : compareStrings(a, b);
    }
    case 'string': {
      if (!other) return compareStrings(comparableQualifier(item.value), RELEASE_INDEX);
      if (other.kind === 'number' || other.kind === 'list') return -1;
      if (other.kind === 'string') return compareStrings(comparableQualifier(item.value), comparableQualifier(other.value));
      const r = compare(item, other.string);
      return r === 0 ? -1 : r;
    }
    case 'combination': {
      if (!other) return compare(item.string, undefined);
      if (other.kind === 'number' || other.kind === 'list') return -1;
      if (other.kind === 'string') {
        const r = compare(item.string, other);
        return r === 0 ? 1 : r;
      }
      return compare(item.string, other.string) || compare(item.digits, other.digits);
    }
    case 'list': {
      if (!other) {
        for (const i of item.items) {
          const r = compare(i, undefined);
          if (r !== 0) return r;
        }
        return 0;
      }
      if (other.kind === 'number') return -1;
      if (other.kind !== 'list') return 1;
      const n = Math.max(item.items.length, other.items.length);
      for (let k = 0; k < n; k++) {
        const l = item.items[k];
        const r = other.items[k];
        const result = l === undefined ? (r === undefined ? 0 : -compare(r, undefined)) : compare(l, r);
        if (result !== 0) return result;
      }
      return 0;
    }
  }
}

function normalize(list: ListItem): void {
  const items = list.items;
  for (let i = items.length - 1; i >= 0; i--) {
    if (!isNull(items[i])) continue;
    const next = items[i + 1];
    if (i === items.length - 1 || next.kind === 'string') items.splice(i, 1);
    else if (next.kind === 'list') {
      const head = next.items[0];
      if (head && (head.kind === 'combination' || head.kind === 'string')) items.splice(i, 1);
    }
  }
}

function isAsciiDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** ComparableVersion.parseVersion. */
function parse(version: string): ListItem {
  const v = version.toLowerCase();
  const root: ListItem = { kind: 'list', items: [] };
  let list = root;
  const stack: ListItem[] = [root];
  const open = () => {
    const sub: ListItem = { kind: 'list', items: [] };
    list.items.push(sub);
    list = sub;
    stack.push(sub);
  };
  let isDigit = false;
  let isCombination = false;
  let start = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '.') {
      list.items.push(i === start ? numberItem('0') : parseItem(isCombination, isDigit, v.slice(start, i)));
      isCombination = false;
      start = i + 1;
    } else if (c === '-') {
      if (i === start) list.items.push(numberItem('0'));
      else {
        // X-1 is read as X1
        if (!isDigit && i !== v.length - 1 && isAsciiDigit(v[i + 1])) {
          isCombination = true;
          continue;
        }
        list.items.push(parseItem(isCombination, isDigit, v.slice(start, i)));
      }
      start = i + 1;
      if (list.items.length > 0) open();
      isCombination = false;
    } else if (isAsciiDigit(c)) {
      if (!isDigit && i > start) {
        isCombination = true;
        if (list.items.length > 0) open();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.items.push(parseItem(isCombination, true, v.slice(start, i)));
        start = i;
        open();
        isCombination = false;
      }
      isDigit = false;
    }
  }
  if (v.length > start) {
    // 1.0.0.X1 < 1.0.0-X2: a trailing .X is read as -X
    if (!isDigit && list.items.length > 0) open();
    list.items.push(parseItem(isCombination, isDigit, v.slice(start)));
  }
  while (stack.length > 0) normalize(stack.pop()!);
  return root;
}

/** Maven accepts any version string; Berth refuses the empty one and control characters. */
export function isValidMavenVersion(v: string): boolean {
  if (v === '') return false;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) < 0x20 || /\s/.test(v[i])) return false;
  return true;
}

export function compareMavenVersions(a: string, b: string): number {
  return Math.sign(compare(parse(a), parse(b)));
}
