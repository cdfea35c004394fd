import { redact } from '../redact.js';
import type { Cell, ReportSection } from './model.js';
import type { ReportInput } from './snapshot.js';
import { makeTable } from './table.js';

/**
 * The action log for a period: every write Fleetdeck performed (who, when, where, what, the
 * outcome), with the result of walking the log's hash chain, so an auditor sees both the record
 * and whether it was altered.
 */
export function actionsSection(input: ReportInput): ReportSection {
  const siteName = new Map(input.sites.map((s) => [s.id, s.name]));
  const rows: Cell[][] = input.actions.records.map((r) => [
    r.seq,
    r.at,
    r.user,
    siteName.get(r.siteId) ?? r.siteId,
    r.system === '' ? null : r.system,
    r.operation,
    r.result === 'unknown' ? 'outcome unknown' : r.result,
    r.message === '' ? null : r.message,
    paramsText(r.params),
    r.hash,
  ]);
  const v = input.actions.verification;
  const { since, until } = input.period;
  const period = since || until ? `from ${since ?? 'the first record'} until ${until ?? 'now'}` : 'all records';
  return {
    id: 'actions',
    kind: 'actions',
    title: 'Action log',
    description: `Every write Fleetdeck performed on the systems in scope, ${period}. Each record carries the SHA-256 of the one before it; the chain check covers the whole log.`,
    tables: [
      makeTable(
        'actions.verification',
        'Hash chain check',
        [
          ['checkedRecords', 'Records checked', 'number'],
          ['intact', 'Chain intact', 'bool'],
          ['problems', 'Problems'],
          ['period', 'Period shown'],
          ['shown', 'Records shown', 'number'],
        ],
        ['period'],
        [[v.count, v.ok, v.problems.length ? v.problems.map((p) => `record ${p.seq}: ${p.reason}`).join('; ') : null, period, rows.length]],
      ),
      makeTable(
        'actions.records',
        'Actions',
        [
          ['seq', 'Seq', 'number'],
          ['time', 'Time', 'time'],
          ['user', 'User'],
          ['site', 'Site'],
          ['system', 'System'],
          ['operation', 'Operation'],
          ['result', 'Result'],
          ['message', 'Message'],
          ['parameters', 'Parameters'],
          ['hash', 'Record hash'],
        ],
        ['seq'],
        rows,
        'No actions in this period.',
      ),
    ],
    dataAges: [],
  };
}

/** Parameters as compact JSON; secrets were masked when logged and are masked again here. */
function paramsText(params: unknown): string | null {
  if (params === null || params === undefined) return null;
  const json: unknown = JSON.stringify(redact(params));
  return typeof json === 'string' ? json : null;
}
