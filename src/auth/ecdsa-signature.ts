// ECDSA signatures in their two forms: DER `SEQUENCE { INTEGER r, INTEGER s }`,
// which node:crypto makes and takes for a bare KeyObject, and JWS's r‖s, each
// left-padded to the curve's size (RFC 7518 §3.4). Asking node:crypto for
// 'ieee-p1363' instead means passing an options object, which costs more than
// the signature itself (a key check that throws and catches: ~60 µs to sign,
// ~90 to verify, against ~25 and ~50 with a KeyObject), so Berth converts.

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

/** r‖s of `size` bytes each → DER; undefined when the length is not 2 × `size`. */
export function joseToDer(jose: Buffer, size: number): Buffer | undefined {
  if (jose.length !== 2 * size) return undefined;
  const integer = (part: Buffer): Buffer => {
    let start = 0;
    while (start < part.length - 1 && part[start] === 0) start++;
    const bytes = part.subarray(start);
    // A set high bit would make the integer negative: a 0x00 keeps it positive.
    return (bytes[0] ?? 0) & 0x80
      ? Buffer.concat([Buffer.from([0x02, bytes.length + 1, 0]), bytes])
      : Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([integer(jose.subarray(0, size)), integer(jose.subarray(size))]);
  // P-521's sequence can pass 127 bytes: then its length takes the long form.
  const length = body.length < 0x80 ? Buffer.from([body.length]) : Buffer.from([0x81, body.length]);
  return Buffer.concat([Buffer.from([0x30]), length, body]);
}
