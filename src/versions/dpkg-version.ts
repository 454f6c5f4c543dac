// Debian package version order (Debian Policy §5.6.12): [epoch:]upstream[-revision],
// compared epoch first (numerically), then upstream and revision by dpkg's
// verrevcmp: alternating non-digit runs (letters before non-letters, `~`
// before everything, even the end) and digit runs (numerically). Written by
// hand: no maintained JavaScript library implements dpkg's order.

interface DpkgParts {
  epoch: string;
  upstream: string;
  revision: string;
}

/** Splits as dpkg does: epoch before the first ':', revision after the last '-'. Never throws. */
function split(v: string): DpkgParts {
  let s = v.trim();
  let epoch = '0';
  const colon = s.indexOf(':');
  if (colon >= 0 && /^\d+$/.test(s.slice(0, colon))) {
    epoch = s.slice(0, colon).replace(/^0+(?=\d)/, '');
    s = s.slice(colon + 1);
  }
  const dash = s.lastIndexOf('-');
  if (dash >= 0) return { epoch, upstream: s.slice(0, dash), revision: s.slice(dash + 1) };
  return { epoch, upstream: s, revision: '' };
}

/**
 * dpkg's parseversion: an optional epoch (a number that fits an int), an
 * upstream version that starts with a digit and holds [A-Za-z0-9.+~-:]
 * (':' only after an epoch), a revision of [A-Za-z0-9.+~] after the last '-'.
 */
export function isValidDpkgVersion(v: string): boolean {
  const s = v.trim();
  if (s === '' || /\s/.test(s)) return false;
  const colon = s.indexOf(':');
  if (colon >= 0 && !(/^\d{1,10}$/.test(s.slice(0, colon)) && Number(s.slice(0, colon)) <= 2147483647)) return false;
  const { upstream, revision } = split(s);
  if (!/^[0-9]/.test(upstream)) return false;
  if (!(colon >= 0 ? /^[A-Za-z0-9.+~:-]+$/ : /^[A-Za-z0-9.+~-]+$/).test(upstream)) return false;
  return /^[A-Za-z0-9.+~]*$/.test(revision);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** dpkg's order(): `~` first, then the end of the string, letters, everything else. */
function order(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  if (isDigit(c)) return 0;
  if (isLetter(c)) return c;
  if (c === 126) return -1; // '~'
  return c + 256;
}

/** dpkg's verrevcmp over one part (upstream or revision). */
function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(a.charCodeAt(i))) || (j < b.length && !isDigit(b.charCodeAt(j)))) {
      const ac = order(a, i);
      const bc = order(b, j);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a.charCodeAt(i) === 48) i++;
    while (b.charCodeAt(j) === 48) j++;
    let firstDiff = 0;
    while (i < a.length && j < b.length && isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (i < a.length && isDigit(a.charCodeAt(i))) return 1;
    if (j < b.length && isDigit(b.charCodeAt(j))) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

function compareEpochs(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders any two strings the way dpkg --compare-versions does (a missing revision is ""). */
export function compareDpkgVersions(a: string, b: string): number {
  const pa = split(a);
  const pb = split(b);
  return compareEpochs(pa.epoch, pb.epoch) || verrevcmp(pa.upstream, pb.upstream) || verrevcmp(pa.revision, pb.revision);
}
