import { describe, expect, it } from 'vitest';
import { parseSmart, type SmartReport } from '../../../../app/smart/parse.js';
import { sasHdd, sasSsd } from '../../../support/smart-scsi.js';

const field = (r: SmartReport, label: string) => r.scsi?.fields.find((f) => f.label === label);
/** A healthy SAS HDD with `lines` put in before its grown defect list line. */
const withLines = (lines: string[]): string => sasHdd().replace('Elements in grown defect list:', `${lines.join('\n')}\nElements in grown defect list:`);

describe('SCSI rating rules, further', () => {
  it('rates pending defects: any a warning, 10 or more, or more than before, critical', () => {
    expect(field(parseSmart(withLines(['Pending defect count: 0'])), 'Pending defect count')?.risk).toBe('ok');
    expect(field(parseSmart(withLines(['Pending defect count: 3'])), 'Pending defect count')).toMatchObject({ risk: 'warning', reason: '3 pending defects' });
    expect(field(parseSmart(withLines(['Pending defect count: 10'])), 'Pending defect count')).toMatchObject({ risk: 'critical', reason: '10 pending defects, at or above 10' });
    const before = parseSmart(withLines(['Pending defect count: 2']));
    expect(field(parseSmart(withLines(['Pending defect count: 3']), before), 'Pending defect count')).toMatchObject({ risk: 'critical', reason: 'pending defects grew from 2 to 3' });
  });

  it('takes the first of two lines of one figure', () => {
    const r = parseSmart(withLines(['Pending defect count: 4', 'Pending defect count: 0']));
    expect(r.scsi?.pendingDefects).toBe(4);
  });

  it('does not rate the temperature against a trip temperature of 0 (not specified)', () => {
    expect(field(parseSmart(sasHdd({ temperatureC: 40, tripC: 0 })), 'Current Drive Temperature')?.risk).toBe('ok');
    expect(field(parseSmart(sasHdd({ temperatureC: 80, tripC: 85 })), 'Current Drive Temperature')?.risk).toBe('warning');
    expect(field(parseSmart(sasHdd({ temperatureC: 79, tripC: 85 })), 'Current Drive Temperature')?.risk).toBe('ok');
  });

  it('does not rate cycles without a specified lifetime count', () => {
    const text = sasHdd({ startStop: 999_999 }).replace(/^Specified cycle count over device lifetime:.*$/m, '');
    expect(field(parseSmart(text), 'Accumulated start-stop cycles')?.risk).toBe('ok');
  });

  it('compares each operation’s uncorrected errors with the same operation’s earlier count', () => {
    const before = parseSmart(sasHdd({ uncorrected: { read: 0, write: 5 } }));
    const now = parseSmart(sasHdd({ uncorrected: { read: 5, write: 5 } }), before);
    expect(now.scsi?.errorCounters.find((c) => c.operation === 'read')).toMatchObject({ risk: 'critical', reason: 'uncorrected read errors grew from 0 to 5' });
    expect(now.scsi?.errorCounters.find((c) => c.operation === 'write')).toMatchObject({ risk: 'warning', reason: '5 uncorrected write errors' });
  });

  it('rates an operation the earlier reading did not print by its count alone', () => {
    const before = parseSmart(sasHdd({ uncorrected: { verify: null } }));
    expect(parseSmart(sasHdd({ uncorrected: { verify: 3 } }), before).scsi?.errorCounters.find((c) => c.operation === 'verify')).toMatchObject({ risk: 'warning', reason: '3 uncorrected verify errors' });
  });

  it('still misses the grown defect list when another section had a line it could not read', () => {
    const text = sasHdd().replace(/^Elements in grown defect list:.*$/m, '').replace(/^read: .*$/m, 'read: garbled');
    const r = parseSmart(text);
    expect(r.findings.map((f) => f.subject)).toContain('Elements in grown defect list');
    expect(r.findings.find((f) => f.subject === 'Error counter log')?.message).toBe('row not understood: "read: garbled"');
  });
});

describe('SCSI sections as smartctl prints them, further', () => {
  const subjects = (r: SmartReport) => r.findings.map((f) => `${f.risk} ${f.subject}`);

  it('takes "Error Counter logging not supported" as the error counter log printed', () => {
    const r = parseSmart(sasSsd().replace(/^Error counter log:[\s\S]*?\n\n/m, 'Error Counter logging not supported\n\n'));
    expect(r).toMatchObject({ kind: 'scsi', risk: 'ok', findings: [] });
    expect(r.scsi?.errorCounters).toEqual([]);
  });

  it('names an error counter log without rows once, and reads the lines after it', () => {
    const r = parseSmart(sasHdd({ nonMedium: 7 }).replace(/^(read|write|verify):.*\n/gm, ''));
    expect(r.findings).toEqual([{ risk: 'unknown', subject: 'Error counter log', message: 'printed without any read, write or verify row' }]);
    expect(r.scsi?.nonMediumErrors).toBe(7);
  });

  it('reads the rows after a blank line inside the table header', () => {
    const r = parseSmart(sasHdd().replace('errors\nread:', 'errors\n\nread:'));
    expect(r.scsi?.errorCounters.map((c) => c.operation)).toEqual(['read', 'write', 'verify']);
    expect(r.findings).toEqual([]);
  });

  it('ends the table at the first line after its rows that is not a row, blank or not', () => {
    const r = parseSmart(sasHdd().replace(/^(verify:.*)\n\n/m, '$1\nVendor (Seagate/Hitachi) factory information\n  number of hours powered up = 31877.70\n\n'));
    expect(r.scsi?.errorCounters).toHaveLength(3);
    expect(r.findings).toEqual([]);
  });

  it('reads a defect list the drive did not return as SCSI output, even alone', () => {
    const r = parseSmart("=== START OF READ SMART DATA SECTION ===\nRead defect list: asked for grown list but didn't get it\n");
    expect(r.kind).toBe('scsi');
    expect(subjects(r)).toEqual(['unknown Elements in grown defect list', 'unknown SMART Health Status', 'unknown Error counter log']);
  });

  it('reads "Error Counter logging not supported" as SCSI output, even alone', () => {
    const r = parseSmart('Error Counter logging not supported\n');
    expect(r.kind).toBe('scsi');
    expect(subjects(r)).toEqual(['unknown SMART Health Status', 'unknown Elements in grown defect list']);
  });

  it('names no model from the vendor alone', () => {
    const r = parseSmart(sasHdd().replace(/^Product:.*\n/m, ''));
    expect(r.model).toBeUndefined();
    expect(r.risk).toBe('ok');
  });
});
