/**
 * The scale of a system's percentages. The document names fields `…InPercentage` and gives no
 * range; most systems send 0–100, some send a ratio 0–1 (`0.98` for 98 %), as .NET code that
 * formats with `"P"` keeps it. The value alone cannot tell `1` (1 %) from `1` (100 %), so the scale
 * is learned per system from what its answers show, and kept like its clock offset:
 *
 * - **sizes** (strong): where an answer carries what a percentage measures (a health's healthy and
 *   unhealthy volume counts, a pool's capacity and usage beside its free share), the percentage that
 *   agrees with them names the scale;
 * - **a value over 1** (strong): no ratio is;
 * - **values all within 0–1, one of them a fraction** (weak, `0.42`): a ratio, unless strong
 *   evidence said otherwise.
 *
 * Strong evidence replaces weak; weak evidence counts only while nothing strong is known, and once
 * strong evidence showed the scale, the system's answers are read by it without being weighed again.
 * Where the scale is still not known, a percentage within (0, 1] is **not read**: it is left out and
 * named under {@link SCALE_UNKNOWN_FIELD} on its object, so views say "percentage scale not known"
 * rather than raising a false critical (1 % healthy) or hiding a real one (0.5 read as 50 %).
 */

export type PercentScale = 'percent' | 'fraction';

/** What one answer shows of its system's scale. */
export interface ScaleEvidence {
  readonly scale: PercentScale;
  /** From sizes or a value over 1 (see the module's header); weak evidence is values alone. */
  readonly strong: boolean;
}

/** The field an object gains naming its percentages left out because the scale is not known. */
export const SCALE_UNKNOWN_FIELD = 'PercentScaleUnknown';

/** How close a percentage must be to what its sizes give, in percentage points, to agree with them. */
const AGREEMENT_POINTS = 1.5;

/**
 * Which reading of `value` agrees with `ratio` (0–1, what the sizes give): `percent` when
 * `value ≈ ratio × 100`, `fraction` when `value ≈ ratio`; undefined when both or neither do.
 */
export function scaleAgreeing(value: number, ratio: number): PercentScale | undefined {
  if (!Number.isFinite(value) || !Number.isFinite(ratio) || value < 0 || ratio < 0 || ratio > 1) return undefined;
  const asPercent = Math.abs(value - ratio * 100) <= AGREEMENT_POINTS;
  const asFraction = Math.abs(value * 100 - ratio * 100) <= AGREEMENT_POINTS;
  return asPercent === asFraction ? undefined : asPercent ? 'percent' : 'fraction';
}

/**
 * What an answer's percentages (`values`, sentinels already left out) and size checks (`votes`,
 * each {@link scaleAgreeing}) show: sizes first (unless they disagree among themselves), then a
 * value over 1, then a fraction among values within 0–1; undefined when nothing tells.
 */
export function scaleEvidence(values: readonly number[], votes: readonly PercentScale[]): ScaleEvidence | undefined {
  const fromSizes = new Set(votes);
  if (fromSizes.size === 1) return { scale: votes[0] as PercentScale, strong: true };
  if (values.some((v) => v > 1)) return { scale: 'percent', strong: true };
  if (values.some((v) => v > 0 && v < 1 && !Number.isInteger(v))) return { scale: 'fraction', strong: false };
  return undefined;
}

/** What a system's scale is once `evidence` is heard, `known` being what was known before. */
export function learnScale(known: ScaleEvidence | undefined, evidence: ScaleEvidence | undefined): ScaleEvidence | undefined {
  if (!evidence) return known;
  if (evidence.strong || !known?.strong) return evidence;
  return known;
}

/** A percentage as read on a system of this scale: a ratio times 100; undefined when the scale is not known and the value could be either. */
export function scaledPercentage(value: number, scale: PercentScale | undefined): number | undefined {
  if (scale === 'fraction') return Math.round(value * 100 * 1e6) / 1e6;
  if (scale === 'percent' || value === 0 || value > 1) return value;
  return undefined;
}

/** Whether a percentage field of this object was left out because its system's scale is not known. */
export function scaleUnknown(obj: unknown, field: string): boolean {
  if (typeof obj !== 'object' || obj === null) return false;
  const names = (obj as Record<string, unknown>)[SCALE_UNKNOWN_FIELD];
  return Array.isArray(names) && names.includes(field);
}

/** How a view or report says a percentage was not read for this reason. */
export const SCALE_UNKNOWN_TEXT = 'percentage scale not known';
