import { describe, expect, it } from 'vitest';
import { parseSmart, type SmartReport } from '../../../../app/smart/parse.js';
import { riskAtLeast, smartReportOf, smartVerdictOf, verdictOfReport } from '../../../../app/smart/verdict.js';

const ATA_HEADER = 'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE';
/** An ATA table with one attribute row per `[id, name, raw]`. */
const ata = (...rows: Array<[number, string, number]>): string =>
  [ATA_HEADER, ...rows.map(([id, name, raw]) => `${String(id).padStart(3)} ${name.padEnd(23)} 0x0033   100   100   010    Pre-fail  Always       -       ${raw}`)].join('\n');

describe('riskAtLeast', () => {
  it('orders risks ok < unknown < warning < critical', () => {
    const order = ['ok', 'unknown', 'warning', 'critical'] as const;
    for (const [i, a] of order.entries()) for (const [j, b] of order.entries()) expect(riskAtLeast(a, b), `${a} ≥ ${b}`).toBe(i >= j);
  });
});

describe('smartReportOf', () => {
  it('has no report for a drive without a cached answer', () => {
    expect(smartReportOf(undefined)).toBeUndefined();
    expect(smartReportOf(null)).toBeUndefined();
  });

  it('parses text as the SMART parser does', () => {
    const text = ata([5, 'Reallocated_Sector_Ct', 3]);
    expect(smartReportOf(text)).toEqual(parseSmart(text));
  });

  it('reads an answer that is not text as its JSON: smartctl’s JSON as such, anything else unknown, never ok', () => {
    const doc = { json_format_version: [1, 0], device: { protocol: 'NVMe' }, nvme_smart_health_information_log: { critical_warning: 4 } };
    expect(smartReportOf(doc)).toMatchObject({ kind: 'nvme', risk: 'critical' });
    expect(smartReportOf({ Temperature: 30 })?.risk).toBe('unknown');
    expect(smartReportOf(42)?.risk).toBe('unknown');
  });
});

describe('a drive’s verdict', () => {
  it('keeps the risk and only the findings at warning or above, each with its risk, subject and message', () => {
    const report: SmartReport = {
      kind: 'ata',
      attributes: [],
      risk: 'critical',
      findings: [
        { risk: 'unknown', subject: 'x', message: 'not read' },
        { risk: 'warning', subject: '5 Reallocated_Sector_Ct', message: 'raw count 3 is above 0' },
        { risk: 'critical', subject: 'overall health', message: 'self-assessment FAILED!' },
      ],
    };
    expect(verdictOfReport(report)).toEqual({ risk: 'critical', findings: [report.findings[1], report.findings[2]] });
  });

  it('gives a drive with nothing to report no findings, whether it is ok or unknown', () => {
    expect(smartVerdictOf(ata([9, 'Power_On_Hours', 100]))).toEqual({ risk: 'ok', findings: [] });
    const unknown = smartVerdictOf('no SMART here');
    expect(unknown).toEqual({ risk: 'unknown', findings: [] });
    // An unknown finding alone is not kept: the risk says it.
    expect(parseSmart('no SMART here').findings.length).toBeGreaterThan(0);
  });

  it('shares one frozen verdict among all drives with nothing to report, so a fleet keeps one object for them', () => {
    const a = smartVerdictOf(ata([9, 'Power_On_Hours', 100]));
    expect(smartVerdictOf(ata([12, 'Power_Cycle_Count', 7]))).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(smartVerdictOf('no SMART here')).toBe(smartVerdictOf('nor here'));
  });

  it('keeps a warning found by the parser', () => {
    expect(smartVerdictOf(ata([5, 'Reallocated_Sector_Ct', 3]))).toEqual({ risk: 'warning', findings: [{ risk: 'warning', subject: '5 Reallocated_Sector_Ct', message: 'raw count 3 is above 0' }] });
    expect(smartVerdictOf(undefined)).toBeUndefined();
  });

  it('copies what it keeps, so the verdict holds nothing of the parsed report', () => {
    const report = parseSmart(ata([5, 'Reallocated_Sector_Ct', 300]));
    const v = verdictOfReport(report);
    expect(v.findings[0]).not.toBe(report.findings[0]);
    expect(Object.keys(v)).toEqual(['risk', 'findings']);
  });
});
