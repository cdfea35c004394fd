/**
 * SMART texts as the simulator prints them, for the parser's corpus test and its micro-benchmark:
 * every drive of a generated fleet in the default dialect (smartctl's ATA table for HDDs and SSDs,
 * the NVMe health log) and in the `sas-smart` dialect (smartctl's SCSI pages, the drive with grown
 * defects, the text smartctl prints when it cannot open a drive), each also failed (as the control
 * API fails a drive) and read again 500 hours later (a degrading drive's counters grow).
 */
import { generateFleet } from '../../simulator/state/generate.js';
import type { DriveState, SystemState } from '../../simulator/state/model.js';
import { sasRole, sasSmartText } from '../../simulator/state/sas-smart.js';
import { smartText } from '../../simulator/state/smart.js';

export interface SimulatedSmart {
  /** What the text is: dialect, drive type, status, wear and role, e.g. `sas HDD OK grown-defects`. */
  kind: string;
  text: string;
  /** The same drive 500 simulated hours later (counters of a degrading drive have grown). */
  later: string;
  /** `failed`: a copy of a drive failed as the control API fails one (not in the generated fleet). */
  as: 'drive' | 'failed';
}

const HOUR = 3_600_000;

/** The kind of a drive's text, as {@link SimulatedSmart.kind} names it. */
function kindOf(sas: boolean, system: SystemState, d: DriveState): string {
  const role = sas && d.type !== 'NVMe' ? (sasRole(system, d) ?? '') : '';
  return [sas && d.type !== 'NVMe' ? 'sas' : 'default', d.type, d.status, d.wear.degradePerHour > 0 ? 'degrading' : 'steady', role].join(' ').trim();
}

function textOf(sas: boolean, system: SystemState, d: DriveState, nowMs: number): string {
  return (sas ? sasSmartText(d, nowMs, sasRole(system, d)) : undefined) ?? smartText(d, nowMs);
}

/**
 * Every SMART text a generated fleet's drives answer (Missing drives answer an error, not text),
 * in both dialects and failed too. `seed`, `sites`, `systems` as the simulator takes them.
 */
export function simulatedSmartTexts(o: { seed: string; sites: number; systems: number; nowMs: number }): SimulatedSmart[] {
  const fleet = generateFleet({ seed: o.seed, sites: o.sites, systems: o.systems, demo: false, username: 'admin', password: 'pw', nowMs: o.nowMs });
  const out: SimulatedSmart[] = [];
  for (const site of fleet.sites)
    for (const system of site.systems)
      for (const node of system.nodes)
        for (const d of node.drives) {
          if (d.status === 'Missing') continue;
          for (const sas of [false, true]) {
            if (sas && d.type === 'NVMe') continue;
            out.push({ as: 'drive', kind: kindOf(sas, system, d), text: textOf(sas, system, d, o.nowMs), later: textOf(sas, system, d, o.nowMs + 500 * HOUR) });
            if (d.status === 'Failed') continue;
            // As the control API fails a drive: only its status changes.
            const failed: DriveState = { ...d, status: 'Failed' };
            out.push({ as: 'failed', kind: kindOf(sas, system, failed), text: textOf(sas, system, failed, o.nowMs), later: textOf(sas, system, failed, o.nowMs + 500 * HOUR) });
          }
        }
  return out;
}

/** A report as text, with `undefined` members kept (as a marker): results compare member by member, absent ≠ undefined. */
export function serializeReport(report: unknown): string {
  return JSON.stringify(report, (_k, v: unknown) => (v === undefined ? UNDEFINED : v));
}

/** A report {@link serializeReport} wrote, with its `undefined` members absent again (as a `previous` argument). */
export function reportOf<T>(text: string): T {
  return JSON.parse(text, (_k, v: unknown) => (v === UNDEFINED ? undefined : v)) as T;
}

const UNDEFINED = '\u0000undefined';

/**
 * Texts derived from one SMART text, by family, to reach the parser's edge cases: line ends, cuts at
 * and inside every line, other whitespace and letter case, spaced colons, collapsed columns.
 */
export function variantsOf(text: string): Record<string, string[]> {
  const lines = text.split('\n');
  const cuts: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines.slice(0, i).join('\n');
    const line = lines[i] ?? '';
    cuts.push(head, `${head}${i ? '\n' : ''}${line.slice(0, Math.ceil(line.length / 2))}`);
  }
  return {
    crlf: [text.replace(/\n/g, '\r\n')],
    cuts,
    whitespace: [lines.map((l) => `\t${l} \t`).join('\n'), lines.map((l) => `\u00a0${l}\u00a0`).join('\n'), lines.map((l) => l.replace(/ /g, '\t')).join('\n')],
    letterCase: [text.toUpperCase(), text.toLowerCase()],
    colons: [text.replace(/:/g, ' :'), text.replace(/: +/g, ':'), text.replace(/:/g, '::')],
    columns: [text.replace(/ {2,}/g, ' '), lines.map((l) => l.trim()).join('\n')],
  };
}
