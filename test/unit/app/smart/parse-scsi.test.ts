import { describe, expect, it } from 'vitest';
import { parseSmart, type SmartReport } from '../../../../app/smart/parse.js';
import { sasHdd, sasSsd } from '../../../support/smart-scsi.js';

const field = (r: SmartReport, label: string) => r.scsi?.fields.find((f) => f.label === label);
const counter = (r: SmartReport, op: string) => r.scsi?.errorCounters.find((c) => c.operation === op);
const subjects = (r: SmartReport) => r.findings.map((f) => `${f.risk} ${f.subject}`);

describe('parseSmart: SCSI (SAS) as smartctl prints it', () => {
  it('reads a healthy SAS HDD: identity, health, temperatures, cycles, defects and the error counter log', () => {
    const r = parseSmart(sasHdd());
    expect(r).toMatchObject({ kind: 'scsi', model: 'HGST HUH721212AL5200', serial: '8HK2QX7Z', firmware: 'A3D0', overallHealth: 'OK', risk: 'ok', findings: [] });
    expect(r.scsi).toMatchObject({
      temperatureC: 34,
      tripTemperatureC: 85,
      grownDefects: 0,
      nonMediumErrors: 2,
      startStopCycles: 61,
      startStopLimit: 50000,
      loadUnloadCycles: 2214,
      loadUnloadLimit: 600000,
    });
    expect(field(r, 'Accumulated power on time')).toMatchObject({ text: '31877:42', value: 31877 });
    expect(r.scsi?.errorCounters.map((c) => [c.operation, c.totalCorrected, c.gigabytesProcessed, c.uncorrected])).toEqual([
      ['read', 15, 48213.557, 0],
      ['write', 0, 30977.104, 0],
      ['verify', 0, 1204.88, 0],
    ]);
    expect(r.attributes).toEqual([]);
    expect(r.nvme).toBeUndefined();
  });

  it('rates the reviewer\'s drive, 2,500 grown defects and 57 uncorrected read errors, critical', () => {
    const r = parseSmart(sasHdd({ grownDefects: 2500, uncorrected: { read: 57 } }));
    expect(r.risk).toBe('critical');
    expect(r.findings).toEqual([
      { risk: 'critical', subject: 'Elements in grown defect list', message: '2500 elements in the grown defect list, at or above 100' },
      { risk: 'critical', subject: 'read: Total uncorrected errors', message: '57 uncorrected read errors, at or above 10' },
    ]);
    expect(counter(r, 'read')?.risk).toBe('critical');
    expect(counter(r, 'write')?.risk).toBe('ok');
  });

  it('warns on any grown defect, is critical from 100 and when the list grew since the last reading', () => {
    const few = parseSmart(sasHdd({ grownDefects: 3 }));
    expect(field(few, 'Elements in grown defect list')).toMatchObject({ risk: 'warning', reason: '3 elements in the grown defect list' });
    expect(few.risk).toBe('warning');
    expect(parseSmart(sasHdd({ grownDefects: 99 })).risk).toBe('warning');
    expect(parseSmart(sasHdd({ grownDefects: 100 })).risk).toBe('critical');
    const grew = parseSmart(sasHdd({ grownDefects: 4 }), few);
    expect(field(grew, 'Elements in grown defect list')).toMatchObject({ risk: 'critical', reason: 'elements in the grown defect list grew from 3 to 4' });
    expect(parseSmart(sasHdd({ grownDefects: 3 }), few).risk).toBe('warning');
  });

  it('warns on any uncorrected read, write or verify error, critical from 10 or when the count grew', () => {
    const one = parseSmart(sasHdd({ uncorrected: { write: 1 } }));
    expect(subjects(one)).toEqual(['warning write: Total uncorrected errors']);
    expect(counter(one, 'write')?.reason).toBe('1 uncorrected write errors');
    expect(parseSmart(sasHdd({ uncorrected: { verify: 12 } })).findings[0]).toMatchObject({ risk: 'critical', subject: 'verify: Total uncorrected errors' });
    const grew = parseSmart(sasHdd({ uncorrected: { write: 2 } }), one);
    expect(counter(grew, 'write')).toMatchObject({ risk: 'critical', reason: 'uncorrected write errors grew from 1 to 2' });
  });

  it('takes PASSED, the ATA word a system\'s wrapper may print, as healthy too', () => {
    expect(parseSmart(sasHdd({ health: 'PASSED' })).risk).toBe('ok');
  });

  it('is critical when the health status is anything but OK', () => {
    const r = parseSmart(sasHdd({ health: 'HARDWARE IMPENDING FAILURE GENERAL HARD DRIVE FAILURE [asc=5d, ascq=10]' }));
    expect(r.overallHealth).toBe('HARDWARE IMPENDING FAILURE GENERAL HARD DRIVE FAILURE [asc=5d, ascq=10]');
    expect(r.findings).toEqual([{ risk: 'critical', subject: 'SMART Health Status', message: 'the drive reports HARDWARE IMPENDING FAILURE GENERAL HARD DRIVE FAILURE [asc=5d, ascq=10]' }]);
  });

  it('is critical at or over the trip temperature and a warning within 5 C of it', () => {
    expect(field(parseSmart(sasHdd({ temperatureC: 85, tripC: 85 })), 'Current Drive Temperature')).toMatchObject({ risk: 'critical', reason: '85 C is at or above the trip temperature 85 C' });
    expect(parseSmart(sasHdd({ temperatureC: 91, tripC: 85 })).risk).toBe('critical');
    expect(parseSmart(sasHdd({ temperatureC: 80, tripC: 85 })).risk).toBe('warning');
    expect(parseSmart(sasHdd({ temperatureC: 79, tripC: 85 })).risk).toBe('ok');
  });

  it('takes a temperature smartctl could not read as absent, not as a problem', () => {
    const r = parseSmart(sasHdd().replace('Current Drive Temperature:     34 C', 'Current Drive Temperature:     <not available>'));
    expect(r.risk).toBe('ok');
    expect(r.scsi?.temperatureC).toBeUndefined();
  });

  it('warns at 90 % of the specified start-stop or load-unload cycles and is critical when they are used up', () => {
    expect(field(parseSmart(sasHdd({ startStop: 45000 })), 'Accumulated start-stop cycles')).toMatchObject({
      risk: 'warning',
      reason: "45000 start-stop cycles of the 50000 specified over the drive's lifetime",
    });
    expect(parseSmart(sasHdd({ startStop: 44999 })).risk).toBe('ok');
    expect(parseSmart(sasHdd({ startStop: 50000 })).risk).toBe('critical');
    expect(field(parseSmart(sasHdd({ loadUnload: 600000 })), 'Accumulated load-unload cycles')?.risk).toBe('critical');
    expect(parseSmart(sasHdd({ loadUnload: 540000 })).risk).toBe('warning');
    // A specified count of 0 means the drive specifies none.
    expect(parseSmart(sasHdd({ startStop: 9000, startStopSpec: 0 })).risk).toBe('ok');
  });

  it('reads a SAS SSD: endurance used warns at 90 % and is critical at 100 %', () => {
    const ok = parseSmart(sasSsd());
    expect(ok).toMatchObject({ kind: 'scsi', model: 'SAMSUNG MZILT3T8HBLS/007', risk: 'ok' });
    expect(ok.scsi?.enduranceUsedPercent).toBe(4);
    // An SSD without a verify row and with no load-unload count specified is complete and fine.
    expect(ok.scsi?.errorCounters.map((c) => c.operation)).toEqual(['read', 'write']);
    expect(parseSmart(sasSsd({ enduranceUsed: 89 })).risk).toBe('ok');
    expect(parseSmart(sasSsd({ enduranceUsed: 90 })).findings).toEqual([{ risk: 'warning', subject: 'Percentage used endurance indicator', message: '90% of the rated endurance is used' }]);
    expect(parseSmart(sasSsd({ enduranceUsed: 100 })).risk).toBe('critical');
    // Older smartctl releases call it the "SS Media used endurance indicator".
    const older = parseSmart(sasSsd({ enduranceUsed: 95 }).replace('Percentage used endurance indicator', 'SS Media used endurance indicator'));
    expect(older.scsi?.enduranceUsedPercent).toBe(95);
    expect(older.risk).toBe('warning');
  });

  it('warns when non-medium errors grew since the last reading, not for a stable count', () => {
    const before = parseSmart(sasHdd({ nonMedium: 40 }));
    expect(before.risk).toBe('ok');
    expect(parseSmart(sasHdd({ nonMedium: 40 }), before).risk).toBe('ok');
    expect(field(parseSmart(sasHdd({ nonMedium: 41 }), before), 'Non-medium error count')).toMatchObject({ risk: 'warning', reason: 'non-medium errors grew from 40 to 41' });
  });

  it('reads gigabytes printed with a decimal comma', () => {
    const r = parseSmart(sasHdd().replace('48213.557', '48213,557'));
    expect(counter(r, 'read')?.gigabytesProcessed).toBe(48213.557);
    expect(r.risk).toBe('ok');
  });
});

describe('parseSmart: SCSI text it cannot read is unknown, never ok', () => {
  it('output cut before the defect list and the error counter log', () => {
    const text = sasHdd();
    const r = parseSmart(text.slice(0, text.indexOf('Current Drive Temperature')));
    expect(r.kind).toBe('scsi');
    expect(r.risk).toBe('unknown');
    expect(subjects(r)).toEqual(['unknown Elements in grown defect list', 'unknown Error counter log']);
  });

  it('output cut in the middle of an error counter row', () => {
    const text = sasHdd();
    const r = parseSmart(text.slice(0, text.indexOf('read:') + 24));
    expect(r.risk).toBe('unknown');
    expect(r.findings).toContainEqual({ risk: 'unknown', subject: 'Error counter log', message: expect.stringMatching(/^row not understood: "read: +12 +3"$/) as unknown as string });
  });

  it('an error counter log with its header and no rows', () => {
    const text = sasHdd();
    const r = parseSmart(text.slice(0, text.indexOf('read:')));
    expect(r.findings).toContainEqual({ risk: 'unknown', subject: 'Error counter log', message: 'printed without any read, write or verify row' });
    expect(r.risk).toBe('unknown');
  });

  it('a garbled grown defect count', () => {
    const r = parseSmart(sasHdd({ grownDefects: 'lots' }));
    expect(field(r, 'Elements in grown defect list')).toMatchObject({ risk: 'unknown', reason: 'value "lots" not understood' });
    expect(r.risk).toBe('unknown');
  });

  it('a defect list the drive did not return', () => {
    const r = parseSmart(sasHdd().replace(/Elements in grown defect list: 0/, "Read defect list: asked for grown list but didn't get it"));
    expect(r.findings).toEqual([{ risk: 'unknown', subject: 'Elements in grown defect list', message: "not read: \"Read defect list: asked for grown list but didn't get it\"" }]);
  });

  it('a health status printed without a value', () => {
    expect(parseSmart(sasHdd({ health: '' })).findings).toEqual([{ risk: 'unknown', subject: 'SMART Health Status', message: 'printed without a value' }]);
  });

  it('only the health status, as `smartctl -H` prints it', () => {
    const r = parseSmart('=== START OF READ SMART DATA SECTION ===\nSMART Health Status: OK\n');
    expect(r.risk).toBe('unknown');
    expect(subjects(r)).toEqual(['unknown Elements in grown defect list', 'unknown Error counter log']);
  });

  it('smartctl refusing the device behind a RAID controller', () => {
    const r = parseSmart(
      [
        'smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-18-amd64] (local build)',
        'Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org',
        '',
        "Smartctl open device: /dev/sdc failed: DELL or MegaRaid controller, please try adding '-d megaraid,N'",
      ].join('\n'),
    );
    expect(r).toMatchObject({ kind: 'unknown', risk: 'unknown' });
  });

  it('a known risk still wins over what could not be read', () => {
    const text = sasHdd({ health: 'FAILURE PREDICTION THRESHOLD EXCEEDED [asc=5d, ascq=0]' });
    expect(parseSmart(text.slice(0, text.indexOf('Current Drive Temperature'))).risk).toBe('critical');
  });
});

describe('parseSmart: SCSI detection leaves ATA and NVMe alone', () => {
  it('reads no SCSI section out of NVMe text, and calls a garbled NVMe spare unknown', () => {
    const nvme = ['SMART/Health Information (NVMe Log 0x02)', 'Critical Warning:                   0x00', 'Available Spare:                    n/a', 'Available Spare Threshold:          10%', 'Percentage Used:                    3%', ''].join('\n');
    const r = parseSmart(nvme);
    expect(r.kind).toBe('nvme');
    expect(r.scsi).toBeUndefined();
    expect(r.nvme?.fields.find((f) => f.label === 'Available Spare')).toMatchObject({ risk: 'unknown', reason: 'value "n/a" not understood' });
    expect(r.risk).toBe('unknown');
  });
});
