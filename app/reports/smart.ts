import type { Drive, Node } from '../catalog/resources.js';
import { driveLevel } from '../health/states.js';
import type { SmartRisk } from '../smart/parse.js';
import type { Cell, ReportSection } from './model.js';
import { dataList, smartReportOfAnswer, type ReportInput } from './snapshot.js';
import { SITE_SYSTEM, arr, dataAgesFor, makeTable, text, where } from './table.js';

const OPS = ['GET /resources/list'] as const;
/** A drive's risk in the report: the parser's, or `noData` when no SMART text is cached for it. */
type DriveRisk = SmartRisk | 'noData';
/** Worst first; a text that could not be read ranks above a drive with none and above ok. */
const RANK: Record<DriveRisk, number> = { critical: 0, warning: 1, unknown: 2, noData: 3, ok: 4 };
/** The word in the Risk column: `unknown` says the text was read and not understood. */
const RISK_WORD: Record<DriveRisk, string> = { critical: 'critical', warning: 'warning', unknown: 'unknown', noData: 'no SMART data', ok: 'ok' };

/**
 * Hardware and SMART risk: every drive with its status and the risk its cached SMART text shows
 * (`app/smart/parse.ts`: watched ATA counters, thresholds, NVMe critical warning, spare and wear,
 * SCSI health status, grown defects, uncorrected errors, temperature and cycles), worst first, and
 * every finding behind a risk. A text the parser could not read counts as unknown, never ok.
 */
export function smartSection(input: ReportInput): ReportSection {
  const summary: Cell[][] = [];
  const drives: Array<{ rank: number; row: Cell[] }> = [];
  const findings: Cell[][] = [];
  for (const s of input.systems) {
    const counts: Record<DriveRisk, number> = { ok: 0, warning: 0, critical: 0, unknown: 0, noData: 0 };
    const smartOf = new Map(s.smart.map((a) => [`${a.node}\u0000${a.driveId}`, a]));
    for (const n of dataList<Node>(s, 'GET /resources/list')) {
      for (const d of arr<Drive>(n.Drives)) {
        const cached = typeof d.Id === 'number' && n.Name ? smartOf.get(`${n.Name}\u0000${d.Id}`) : undefined;
        // An answer that is not text (the interface says string) is still an answer: parsed, it is unknown, not "no data".
        const report = cached ? smartReportOfAnswer(cached) : undefined;
        const statusRisk: SmartRisk = driveLevel(d);
        // The drive's level as every view shows it (its status made worse by a SMART risk); a text
        // not understood on a drive whose status is OK says so here (the views keep the drive ok).
        const level: SmartRisk = driveLevel(d, report);
        const risk: DriveRisk = !report ? (level === 'ok' ? 'noData' : level) : level === 'ok' && report.risk === 'unknown' ? 'unknown' : level;
        counts[risk]++;
        const found = report?.findings ?? [];
        drives.push({
          rank: RANK[risk],
          row: [
            ...where(s),
            text(n.Name),
            text(d.Name),
            text(d.Type),
            text(d.Model),
            text(d.ResourceSerial),
            text(d.Version) ?? text(report?.firmware),
            text(d.ResourceStatus),
            text(report?.overallHealth),
            RISK_WORD[risk],
            found.length ? found.map((f) => `${f.subject}: ${f.message}`).join('; ') : null,
            cached?.at ?? null,
          ],
        });
        if (statusRisk !== 'ok') findings.push([...where(s), text(n.Name), text(d.Name), text(d.ResourceSerial), statusRisk, 'drive status', text(d.ErrMsg) ?? `status ${d.ResourceStatus}`]);
        for (const f of found) findings.push([...where(s), text(n.Name), text(d.Name), text(d.ResourceSerial), f.risk, f.subject, f.message]);
      }
    }
    summary.push([...where(s), counts.ok + counts.warning + counts.critical + counts.unknown + counts.noData, counts.critical, counts.warning, counts.ok, counts.unknown, counts.noData]);
  }
  drives.sort((a, b) => a.rank - b.rank);
  return {
    id: 'smart',
    kind: 'smart',
    title: 'Hardware and SMART risk',
    description:
      'Every drive with its status and the risk read from its cached SMART text: a watched ATA counter (reallocated, pending, uncorrectable sectors, ' +
      'reported uncorrectable errors, command timeouts) above 0 is a warning and at or above its limit critical; a value at or below its threshold, ' +
      'a failed self-assessment, an NVMe critical warning or spare below threshold is critical; NVMe wear ≥ 90 % or media errors are a warning. ' +
      'SAS (SCSI): a health status other than OK is critical; grown defects, pending defects and uncorrected read/write/verify errors are a warning, ' +
      'critical from 100 defects, 10 pending or 10 errors or when they grew; at or over the trip temperature, or at the specified start-stop or load-unload cycles, critical ' +
      '(within 5 °C or at 90 % a warning); SSD endurance used ≥ 90 % a warning, 100 % critical. ' +
      'SMART text the app could not read (another layout, cut short, a value that is not a number) is counted unknown, never ok.',
    tables: [
      makeTable(
        'smart.summary',
        'Drives by risk',
        [
          ...SITE_SYSTEM,
          ['drives', 'Drives', 'number'],
          ['critical', 'Critical', 'number'],
          ['warning', 'Warning', 'number'],
          ['ok', 'OK', 'number'],
          ['unknown', 'Unknown (SMART not understood)', 'number'],
          ['noData', 'No SMART data', 'number'],
        ],
        ['site', 'system'],
        summary,
      ),
      makeTable(
        'smart.drives',
        'Drives, worst first',
        [
          ...SITE_SYSTEM,
          ['node', 'Node'],
          ['drive', 'Drive'],
          ['type', 'Type'],
          ['model', 'Model'],
          ['serial', 'Serial'],
          ['firmware', 'Firmware'],
          ['status', 'Status'],
          ['selfAssessment', 'SMART self-assessment'],
          ['risk', 'Risk'],
          ['findings', 'Findings'],
          ['smartAt', 'SMART read at', 'time'],
        ],
        ['site', 'system', 'node', 'drive'],
        drives.map((d) => d.row),
        'No hardware list cached.',
      ),
      makeTable(
        'smart.findings',
        'Findings',
        [...SITE_SYSTEM, ['node', 'Node'], ['drive', 'Drive'], ['serial', 'Serial'], ['risk', 'Risk'], ['subject', 'Subject'], ['message', 'Message']],
        ['site', 'system', 'node', 'drive', 'subject'],
        findings,
        'No findings: no drive shows a SMART risk.',
      ),
    ],
    dataAges: dataAgesFor(input, OPS, true),
  };
}
