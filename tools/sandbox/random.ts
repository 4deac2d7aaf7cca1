/**
 * Seeded randomness for the sandbox: the same seed gives the same ids, card numbers and
 * outcomes, so a failing run can be replayed.
 */

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Luhn check digit for a card number prefix (so generated PANs pass a card network's check). */
export function luhnCheckDigit(prefix: string): string {
  let sum = 0;
  for (let i = 0; i < prefix.length; i++) {
    let d = Number(prefix[prefix.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === pan.slice(-1);
}

export interface IdSource {
  /** A 19-digit Long id such as 1852379830190366720 (as a digit string). */
  longId(): string;
  /** A platform order number (digit string, 19 digits). */
  orderNo(): string;
  /** `n` random decimal digits. */
  digits(n: number): string;
  /** `n` characters from `alphabet`. */
  chars(n: number, alphabet: string): string;
  /** A 16-digit Luhn-valid card number starting with `bin`. */
  pan(bin: string): string;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/** Id helpers over a PRNG. Ids are unique within one IdSource (a repeat is re-drawn). */
export function createIds(random: () => number): IdSource {
  const seen = new Set<string>();
  const digits = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(random() * 10));
    return s;
  };
  const unique = (make: () => string): string => {
    for (;;) {
      const v = make();
      if (!seen.has(v)) {
        seen.add(v);
        return v;
      }
    }
  };
  return {
    longId: () => unique(() => `18${digits(17)}`),
    orderNo: () => unique(() => `19${digits(17)}`),
    digits,
    chars(n, alphabet) {
      let s = '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      return s;
    },
    pan: (bin) =>
      unique(() => {
        const body = bin + digits(15 - bin.length);
        return body + luhnCheckDigit(body);
      }),
    int: (min, max) => min + Math.floor(random() * (max - min + 1)),
  };
}
