/** Formatting shared by the builders and the HTML/PDF renderer. Pure; no locale dependence. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** Bytes in binary units with three significant digits: `1.50 TiB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 ? 0 : v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${sign}${v.toFixed(digits)} ${UNITS[u]}`;
}

/** A duration in seconds as the largest sensible unit: `45 s`, `12 min`, `3.5 h`, `9 d`. */
export function formatAge(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/** A percentage with at most one decimal: `81.1 %`. */
export function formatPercent(p: number): string {
  return `${Math.round(p * 10) / 10} %`;
}
