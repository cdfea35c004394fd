/**
 * Sizes as admins write and read them. Every size the app shows is in binary units (KiB … PiB), the
 * units the systems allocate in, so a volume typed as "2 TiB" is shown as "2.00 TiB" everywhere;
 * decimal units (KB … PB) are accepted when typed and converted exactly. Pure; no locale.
 */

const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** Bytes in binary units with three significant digits: `1.50 TiB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  let u = 0;
  while (v >= 1024 && u < BINARY.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 ? 0 : v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${sign}${v.toFixed(digits)} ${BINARY[u]}`;
}

/** Multipliers by lower-case unit; the bare letters are absent on purpose (see `parseSize`). */
const UNIT_BYTES: Readonly<Record<string, bigint>> = {
  '': 1n,
  b: 1n,
  byte: 1n,
  bytes: 1n,
  kib: 1024n,
  ki: 1024n,
  mib: 1024n ** 2n,
  mi: 1024n ** 2n,
  gib: 1024n ** 3n,
  gi: 1024n ** 3n,
  tib: 1024n ** 4n,
  ti: 1024n ** 4n,
  pib: 1024n ** 5n,
  pi: 1024n ** 5n,
  kb: 1000n,
  mb: 1000n ** 2n,
  gb: 1000n ** 3n,
  tb: 1000n ** 4n,
  pb: 1000n ** 5n,
};

const SIZE = /^([0-9]+)(?:\.([0-9]+))?\s*([a-z]*)$/i;

/** One way to write a size, for hints. */
export const SIZE_EXAMPLE = '2 TiB, 500 GiB or 2TB';

/** The step a size that is no whole number of bytes is rounded to, in units of MiB or larger: whole MiB. */
export const SIZE_ROUNDING = 1024 ** 2;

/**
 * A size typed by an admin, in bytes: `2 TiB`, `2TB`, `500 GiB`, `1.5 TiB`, `2.6 TiB`, `1099511627776`.
 * Binary units (KiB … PiB) count in 1024s, decimal units (KB … PB) in 1000s; a number alone is bytes.
 * A bare `2T` is refused rather than guessed, since tools disagree on whether it means TiB or TB.
 * Computed exactly (no floating point), so `1.5 TiB` is exactly 1649267441664 bytes. A decimal that
 * is no whole number of bytes (`2.6 TiB`) is rounded to the nearest whole MiB (`SIZE_ROUNDING`; to
 * the nearest byte below MiB), since systems take whole bytes, and says so with `rounded`.
 */
export function parseSize(text: string): { bytes: number; rounded?: true } | { problem: string } {
  const t = text.trim();
  const m = SIZE.exec(t);
  if (!m) return { problem: `“${t}” is not a size: write a number and a unit, like ${SIZE_EXAMPLE}` };
  const [, whole = '0', fraction = '', unitText = ''] = m;
  const unit = unitText.toLowerCase();
  const factor = UNIT_BYTES[unit];
  if (factor === undefined) {
    if (/^[kmgtp]$/.test(unit)) return { problem: `“${t}” is ambiguous: write ${whole}${fraction ? `.${fraction}` : ''} ${unit.toUpperCase()}iB (1024-based) or ${unit.toUpperCase()}B (1000-based)` };
    return { problem: `“${unitText}” is not a unit: use KiB, MiB, GiB, TiB, PiB (or KB … PB)` };
  }
  const scale = 10n ** BigInt(fraction.length);
  const scaled = (BigInt(whole) * scale + BigInt(fraction || '0')) * factor;
  const exact = scaled % scale === 0n;
  if (!exact && factor === 1n) return { problem: `“${t}” is not a whole number of bytes` };
  const step = exact ? 1n : factor >= BigInt(SIZE_ROUNDING) ? BigInt(SIZE_ROUNDING) : 1n;
  const bytes = ((scaled + (step * scale) / 2n) / (step * scale)) * step;
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) return { problem: `“${t}” is too large` };
  if (bytes === 0n && scaled > 0n) return { problem: `“${t}” is less than one byte` };
  return exact ? { bytes: Number(bytes) } : { bytes: Number(bytes), rounded: true };
}

/**
 * A size as the field under a size input echoes it: the binary figure, then the exact bytes when the
 * figure is rounded, so the admin sees what will be sent.
 */
export function describeSize(bytes: number): string {
  const shown = formatBytes(bytes);
  const [value, unit] = shown.split(' ') as [string, string];
  const exponent = BINARY.indexOf(unit);
  const exact = exponent > 0 && Number(value) * 1024 ** exponent === bytes;
  return exact || exponent === 0 ? shown : `${shown} (${groupDigits(bytes)} bytes)`;
}

/** 1234567 → `1 234 567` (thin spaces; no locale in app/). */
function groupDigits(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

const DECIMAL = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/**
 * A size as an input's text: a whole number of binary units when exact (`2 TiB`, `500 GiB`), else
 * of decimal units (`2 TB`), else bytes, so an edit form shows what the admin would have typed and
 * sends the same bytes back.
 */
export function sizeInput(bytes: number): string {
  for (const [units, base] of [
    [BINARY, 1024],
    [DECIMAL, 1000],
  ] as const) {
    for (let u = 5; u > 0; u--) {
      const n = bytes / base ** u;
      if (Number.isInteger(n) && n > 0 && n < 10_000) return `${n} ${units[u]}`;
    }
  }
  return String(bytes);
}
