// A seeded source of randomness (mulberry32: small, fast, and good enough to
// pick test inputs) and the hostile values the fuzz requests are made of.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(0, 255);
    return out;
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }

  /** A string meant to break something: NUL, control and odd Unicode, huge, empty. */
  weirdString(): string {
    switch (this.int(0, 13)) {
      case 0:
        return '';
      case 1:
        return 'a\u0000b';
      case 2:
        return '\u0000';
      case 3:
        return 'x'.repeat(this.int(1_000, 70_000));
      case 4:
        return '\u{1F40B}'.repeat(this.int(1, 500));
      case 5:
        return '\ud800'; // a lone surrogate
      case 6:
        return 'ā\u0301\u200b\u202e\ufeff';
      case 7:
        return '../../etc/passwd';
      case 8:
        return "'; DROP TABLE groups; --";
      case 9:
        return '%00%zz%';
      case 10:
        return '\r\n\t\u0001\u001f\u007f';
      case 11:
        return ' '.repeat(this.int(1, 300));
      case 12:
        return this.pick(['null', 'true', '0', '-1', 'NaN', '*', '{}', '[]']);
      default:
        return `fz-${this.hex(this.int(1, 12))}`;
    }
  }

  /** A number, or something pretending to be one. */
  weirdNumber(): number | string {
    return this.pick<number | string>([
      0,
      -1,
      1,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      1.5,
      -0.5,
      1e308,
      '9223372036854775808',
      '-9223372036854775809',
      '12',
      ' 7',
      '0x10',
      '1e3',
      'NaN',
      'Infinity',
      '',
      'ten',
    ]);
  }
}
