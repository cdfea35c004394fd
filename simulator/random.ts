/** Hashes text to an unsigned 32-bit seed (FNV-1a followed by a murmur finaliser). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

function fmix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Stateless hash of integers to [0, 1): the basis of time series that need no stored history. */
export function noise(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = fmix(h ^ (Math.floor(v) | 0));
    h = fmix(h ^ Math.floor(v / 4294967296));
  }
  return h / 4294967296;
}

/** Seeded PRNG (mulberry32). All generated state draws from one of these, never from Math.random. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Next float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }

  /** Upper-case letters and digits, like drive and chassis serials. */
  alnum(length: number): string {
    const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
    let s = '';
    while (s.length < length) s += chars[Math.floor(this.next() * chars.length)];
    return s;
  }

  /** An independent generator for a named sub-stream, so adding draws in one part leaves others unchanged. */
  fork(label: string): Rng {
    return new Rng(hashString(`${this.#state}:${label}`));
  }
}
