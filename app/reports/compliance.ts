import { CHANGE_WORDS } from '../compliance/changes.js';
import { RESULT_WORDS, stateWord, worstFirst } from '../compliance/order.js';
import { effectiveResult, waiverText, type Waiver } from '../compliance/waivers.js';
import type { Cell, DataAge, ReportSection } from './model.js';
import type { ReportInput } from './snapshot.js';
import { makeTable } from './table.js';

/**
 * The compliance section: the baseline (name, version, SHA-256), every system's checks with result
 * and evidence, the waivers with reason, granter and end, what changed since the previous kept
 * evaluation, and the score kept over time. It is the
 * evaluation `fleetdeck compliance` and the view show, made when the report was built.
 */
export function complianceSection(input: ReportInput): ReportSection {
  const c = input.compliance;
  const base = { id: 'compliance', kind: 'compliance' as const, title: 'Compliance' };
  if (!c) {
    return { ...base, description: 'Compliance was not evaluated for this report.', tables: [], dataAges: [] };
  }
  const siteName = new Map(input.sites.map((s) => [s.id, s.name]));
  const scopeText = (w: Pick<Waiver, 'siteId' | 'system'>): string =>
    w.siteId === '' ? 'every system' : w.system === '' ? `every system of ${siteName.get(w.siteId) ?? w.siteId}` : `${siteName.get(w.siteId) ?? w.siteId} / ${w.system}`;
  const results: Cell[][] = c.systems.flatMap((s) =>
    worstFirst(s.checks).map((k) => [
      s.site,
      s.system,
      k.id,
      k.severity,
      RESULT_WORDS[effectiveResult(k)],
      k.reason,
      evidenceValues(k.evidence?.values ?? []),
      k.evidence?.op ?? null,
      k.evidence?.at ?? null,
      k.evidence?.ageSeconds ?? null,
      k.waiver ? waiverText(k.waiver) : null,
    ]),
  );
  const evaluatedAt = Date.parse(c.evaluatedAt);
  const waivers: Cell[][] = c.waivers.map((w) => [w.check, scopeText(w), w.reason, w.by, w.at, w.until, Date.parse(w.until) > evaluatedAt ? 'in force' : 'expired', w.seq]);
  // Older report inputs kept in the history have no changes.
  const changes: Cell[][] = (c.changes ?? []).map((x) => [x.site, x.system, x.check, x.severity, CHANGE_WORDS[x.kind], stateWord(x.from), stateWord(x.to), x.since, x.at]);
  const history: Cell[][] = c.history.map((p) => [p.at, p.score ?? null, p.counts.fail, p.counts.waived, p.counts['cannot-tell'], p.counts.pass]);
  return {
    ...base,
    description: `Every system against the baseline ${c.baseline.name} ${c.baseline.version}, from its cached answers: each check passes, fails, cannot tell (data missing, unreadable or too old: never a pass) or does not apply, with the value, the operation it was read from and its age. A waiver, recorded in the action log's hash chain, excuses a failing check until it ends. What changed lists each system's checks whose result differs from the evaluation kept before. The score is the share of applicable checks that pass or are waived.`,
    tables: [
      makeTable(
        'compliance.baseline',
        'Baseline',
        [
          ['name', 'Baseline'],
          ['version', 'Version'],
          ['sha256', 'SHA-256'],
          ['evaluatedAt', 'Evaluated', 'time'],
          ['score', 'Score (%)', 'number'],
          ['fail', 'Failing', 'number'],
          ['waived', 'Waived', 'number'],
          ['cannotTell', 'Cannot tell', 'number'],
          ['pass', 'Pass', 'number'],
        ],
        ['name'],
        [[c.baseline.name, c.baseline.version, c.baseline.sha256, c.evaluatedAt, c.score ?? null, c.counts.fail, c.counts.waived, c.counts['cannot-tell'], c.counts.pass]],
      ),
      makeTable(
        'compliance.results',
        'Checks per system',
        [
          ['site', 'Site'],
          ['system', 'System'],
          ['check', 'Check'],
          ['severity', 'Severity'],
          ['result', 'Result'],
          ['reason', 'Why'],
          ['value', 'Value'],
          ['operation', 'Read from'],
          ['readAt', 'Read at', 'time'],
          ['ageSeconds', 'Age (s)', 'number'],
          ['waiver', 'Waiver'],
        ],
        ['site', 'system', 'check'],
        results,
        'No cached system to evaluate.',
      ),
      makeTable(
        'compliance.waivers',
        'Waivers',
        [
          ['check', 'Check'],
          ['scope', 'For'],
          ['reason', 'Reason'],
          ['by', 'Granted by'],
          ['at', 'Granted', 'time'],
          ['until', 'Until', 'time'],
          ['state', 'State'],
          ['seq', 'Action log record', 'number'],
        ],
        ['seq'],
        waivers,
        'No waiver recorded.',
      ),
      makeTable(
        'compliance.changes',
        'Changed since the previous evaluation',
        [
          ['site', 'Site'],
          ['system', 'System'],
          ['check', 'Check'],
          ['severity', 'Severity'],
          ['change', 'Change'],
          ['from', 'Was'],
          ['to', 'Is'],
          ['since', 'Previous evaluation', 'time'],
          ['at', 'Seen at', 'time'],
        ],
        ['site', 'system', 'check'],
        changes,
        'No check changed since the previous evaluation.',
      ),
      makeTable(
        'compliance.history',
        'Score over time',
        [
          ['at', 'Evaluated', 'time'],
          ['score', 'Score (%)', 'number'],
          ['fail', 'Failing', 'number'],
          ['waived', 'Waived', 'number'],
          ['cannotTell', 'Cannot tell', 'number'],
          ['pass', 'Pass', 'number'],
        ],
        ['at'],
        history,
        'No score kept yet.',
      ),
    ],
    dataAges: dataAges(input),
  };
}


function evidenceValues(values: ReadonlyArray<{ item?: string | undefined; field: string; value?: unknown }>): string | null {
  if (!values.length) return null;
  return values.map((v) => `${v.item !== undefined ? `${v.item}: ` : ''}${v.field}=${v.value === undefined ? '(absent)' : JSON.stringify(v.value)}`).join('; ');
}

/** Per system, the oldest answer any check used (null when none was cached). */
function dataAges(input: ReportInput): DataAge[] {
  const state = new Map(input.systems.map((s) => [`${s.siteId}\u0000${s.system}`, s.state]));
  const now = Date.parse(input.generatedAt);
  return (input.compliance?.systems ?? []).map((s) => {
    const times = s.checks.map((k) => k.evidence?.at).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
    const at = times.length ? times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : null;
    return { siteId: s.siteId, siteName: s.site, system: s.system, at, ageSeconds: at === null ? null : Math.max(0, Math.round((now - Date.parse(at)) / 1000)), state: state.get(`${s.siteId}\u0000${s.system}`) ?? 'stale' };
  });
}
