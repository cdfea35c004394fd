/** Formatting shared by the builders and the HTML/PDF renderer. Pure; no locale dependence. */

export { formatBytes } from '../units.js';

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
