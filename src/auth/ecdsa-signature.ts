// An ECDSA signature from the form node:crypto makes with a bare KeyObject,
// DER `SEQUENCE { INTEGER r, INTEGER s }`, into JWS's r‖s, each left-padded to
// the curve's size (RFC 7518 §3.4), for Berth's own tokens (jwt-sign.ts).
// Asking node:crypto for 'ieee-p1363' instead means passing an options object,
// which costs more than the signature itself (a key check that throws and
// catches), so Berth converts.

/**
 * DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s of `size` bytes each. Strict:
 * anything but a well-formed signature of that size throws (node:crypto made
 * it, so that would be a bug, not input).
 */
export function derToJose(der: Buffer, size: number): Buffer {
  let at = 0;
  const fail = (): never => {
    throw new Error('malformed DER ECDSA signature');
  };
  const length = (): number => {
    const first = der[at++] ?? fail();
    if (first < 0x80) return first;
    if (first !== 0x81) fail(); // an ECDSA signature's sequence is under 256 bytes
    return der[at++] ?? fail();
  };
  const integer = (out: Buffer, offset: number): void => {
    if (der[at++] !== 0x02) fail();
    let n = length();
    if (n === 0 || at + n > der.length) fail();
    // A leading 0x00 only keeps the integer positive.
    while (n > size && der[at] === 0) {
      at++;
      n--;
    }
    if (n > size) fail();
    der.copy(out, offset + size - n, at, at + n);
    at += n;
  };
  if (der[at++] !== 0x30) fail();
  if (length() !== der.length - at) fail();
  const out = Buffer.alloc(2 * size);
  integer(out, 0);
  integer(out, size);
  if (at !== der.length) fail();
  return out;
}
