import { parseSmart, type SmartFinding, type SmartReport, type SmartRisk } from './parse.js';

/**
 * What the app keeps of a drive's SMART text once parsed: its risk and the findings a level or an
 * alert can name. The roll-up, the alert rules and the reports read a drive's SMART through this, so
 * a drive rates the same wherever it is shown.
 */

/** A drive's SMART risk and the findings behind it (warning and critical only). */
export interface SmartVerdict {
  readonly risk: SmartRisk;
  readonly findings: readonly SmartFinding[];
}

/** A system's SMART verdicts by drive: undefined where no SMART text is cached for it. */
export type SmartLookup = (node: string, driveId: number) => SmartVerdict | undefined;

const RISK_RANK: Readonly<Record<SmartRisk, number>> = { ok: 0, unknown: 1, warning: 2, critical: 3 };

/** Whether `risk` is at least `min`. */
export function riskAtLeast(risk: SmartRisk, min: SmartRisk): boolean {
  return RISK_RANK[risk] >= RISK_RANK[min];
}

/** The verdict of a drive whose report found nothing to report (most drives): one object for them all. */
const NOTHING_FOUND: Readonly<Record<'ok' | 'unknown', SmartVerdict>> = {
  ok: Object.freeze({ risk: 'ok', findings: Object.freeze([]) }),
  unknown: Object.freeze({ risk: 'unknown', findings: Object.freeze([]) }),
};

/**
 * A drive's cached SMART answer as the SMART report reads it: text parsed by the SMART parser; an
 * answer that is not text is parsed as its JSON, and then rates unknown, never ok.
 */
export function smartReportOf(cached: unknown): SmartReport | undefined {
  if (cached === undefined || cached === null) return undefined;
  return parseSmart(typeof cached === 'string' ? cached : (JSON.stringify(cached, null, 2) ?? ''));
}

/**
 * The verdict of a drive's cached SMART answer ({@link smartReportOf}), small enough to keep for
 * every drive of a fleet: the risk and only the findings at warning or above. The parser's strings
 * are slices of (or joins over) the SMART text, and each would keep the whole text alive; the
 * findings kept are copied through JSON, which builds new strings, so the text can be collected.
 */
export function smartVerdictOf(cached: unknown): SmartVerdict | undefined {
  const report = smartReportOf(cached);
  return report ? verdictOfReport(report) : undefined;
}

/** The verdict of a parsed report (see {@link smartVerdictOf}). */
export function verdictOfReport(report: SmartReport): SmartVerdict {
  const findings = report.findings.filter((f) => riskAtLeast(f.risk, 'warning'));
  if (!findings.length && (report.risk === 'ok' || report.risk === 'unknown')) return NOTHING_FOUND[report.risk];
  return JSON.parse(JSON.stringify({ risk: report.risk, findings: findings.map((f) => ({ risk: f.risk, subject: f.subject, message: f.message })) })) as SmartVerdict;
}
