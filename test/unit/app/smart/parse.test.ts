import { describe, expect, it } from 'vitest';
import { firstNumber, parseSmart, type SmartReport } from '../../../../app/smart/parse.js';

const HEADER = [
  'smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0-91-generic] (local build)',
  'Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org',
  '',
  '=== START OF INFORMATION SECTION ===',
];

/** An ATA report in the simulator's layout, with the raw counts of the watched attributes given. */
function ata(raw: { r5?: number; r187?: number; r188?: string; r197?: number; r198?: number; value5?: number; overall?: string } = {}): string {
  const row = (id: number, name: string, flag: string, value: number, worst: number, thresh: number, type: string, updated: string, rawText: string): string => {
    const p3 = (n: number): string => String(n).padStart(3, '0');
    const failing = value <= thresh && thresh > 0 ? 'FAILING_NOW' : '-';
    return `${String(id).padStart(3, ' ')} ${name.padEnd(23, ' ')} ${flag}   ${p3(value)}   ${p3(worst)}   ${p3(thresh)}    ${type.padEnd(9, ' ')} ${updated.padEnd(8, ' ')} ${failing.padStart(11, ' ').padEnd(12, ' ')}${rawText}`;
  };
  return [
    ...HEADER,
    'Device Model:     ST16000NM001G-2KK103',
    'Serial Number:    ZL2ABCDE',
    'Firmware Version: SN03',
    'Rotation Rate:    7200 rpm',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    `SMART overall-health self-assessment test result: ${raw.overall ?? 'PASSED'}`,
    '',
    'SMART Attributes Data Structure revision number: 10',
    'Vendor Specific SMART Attributes with Thresholds:',
    'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE',
    row(1, 'Raw_Read_Error_Rate', '0x000f', 82, 64, 44, 'Pre-fail', 'Always', '180000013'),
    row(5, 'Reallocated_Sector_Ct', '0x0033', raw.value5 ?? 100, raw.value5 ?? 100, 10, 'Pre-fail', 'Always', String(raw.r5 ?? 0)),
    row(9, 'Power_On_Hours', '0x0032', 97, 97, 0, 'Old_age', 'Always', '31234'),
    row(187, 'Reported_Uncorrect', '0x0032', 100, 100, 0, 'Old_age', 'Always', String(raw.r187 ?? 0)),
    row(188, 'Command_Timeout', '0x0032', 100, 100, 0, 'Old_age', 'Always', raw.r188 ?? '0 0 0'),
    row(194, 'Temperature_Celsius', '0x0022', 36, 45, 0, 'Old_age', 'Always', '36 (Min/Max 19/46)'),
    row(197, 'Current_Pending_Sector', '0x0012', 100, 100, 0, 'Old_age', 'Always', String(raw.r197 ?? 0)),
    row(198, 'Offline_Uncorrectable', '0x0010', 100, 100, 0, 'Old_age', 'Offline', String(raw.r198 ?? 0)),
    row(199, 'UDMA_CRC_Error_Count', '0x003e', 200, 200, 0, 'Old_age', 'Always', '3'),
    '',
  ].join('\n');
}

function nvme(o: { critical?: string; spare?: number; threshold?: number; used?: number; media?: string } = {}): string {
  return [
    ...HEADER,
    'Model Number:                       SAMSUNG MZQL23T8HCLS-00A07',
    'Serial Number:                      S64HNE0T123456',
    'Firmware Version:                   GDC5602Q',
    'Total NVM Capacity:                 3,840,755,982,336 bytes [3.8 TB]',
    '',
    '=== START OF SMART DATA SECTION ===',
    'SMART overall-health self-assessment test result: PASSED',
    '',
    'SMART/Health Information (NVMe Log 0x02)',
    `Critical Warning:                   ${o.critical ?? '0x00'}`,
    'Temperature:                        38 Celsius',
    `Available Spare:                    ${o.spare ?? 100}%`,
    `Available Spare Threshold:          ${o.threshold ?? 10}%`,
    `Percentage Used:                    ${o.used ?? 3}%`,
    'Data Units Read:                    1,234,567 [632 GB]',
    'Power On Hours:                     12,345',
    'Unsafe Shutdowns:                   4',
    `Media and Data Integrity Errors:    ${o.media ?? '0'}`,
    'Error Information Log Entries:      0',
    'Warning  Comp. Temperature Time:    0',
    '',
    'Error Information (NVMe Log 0x01, 16 of 64 entries)',
    'No Errors Logged',
    '',
    'Self-test Log (NVMe Log 0x06)',
    'Self-test status: No self-test in progress',
    'No Self-tests Logged',
    '',
  ].join('\n');
}

const attr = (r: SmartReport, id: number) => r.attributes.find((a) => a.id === id);

describe('parseSmart: ATA', () => {
  it('reads every attribute row with its columns and the drive identity', () => {
    const r = parseSmart(ata());
    expect(r.kind).toBe('ata');
    expect(r.model).toBe('ST16000NM001G-2KK103');
    expect(r.serial).toBe('ZL2ABCDE');
    expect(r.firmware).toBe('SN03');
    expect(r.overallHealth).toBe('PASSED');
    expect(r.attributes.map((a) => a.id)).toEqual([1, 5, 9, 187, 188, 194, 197, 198, 199]);
    expect(attr(r, 5)).toMatchObject({ name: 'Reallocated_Sector_Ct', flag: '0x0033', value: 100, worst: 100, thresh: 10, type: 'Pre-fail', updated: 'Always', whenFailed: '-', raw: '0', rawNumber: 0 });
    expect(attr(r, 194)).toMatchObject({ raw: '36 (Min/Max 19/46)', rawNumber: 36 });
    expect(attr(r, 188)).toMatchObject({ raw: '0 0 0', rawNumber: 0 });
  });

  it('is ok when no watched counter is above zero, even if other counters are', () => {
    const r = parseSmart(ata());
    expect(r.risk).toBe('ok');
    expect(r.findings).toEqual([]);
    expect(attr(r, 199)?.risk).toBe('ok');
  });

  it.each([
    [5, { r5: 8 }],
    [187, { r187: 2 }],
    [188, { r188: '3 3 3' }],
    [197, { r197: 1 }],
    [198, { r198: 1 }],
  ] as const)('warns when attribute %i has a small non-zero raw count', (id, raw) => {
    const r = parseSmart(ata(raw));
    expect(attr(r, id)?.risk).toBe('warning');
    expect(attr(r, id)?.reason).toMatch(/above 0/);
    expect(r.risk).toBe('warning');
    expect(r.findings).toHaveLength(1);
  });

  it.each([
    [5, { r5: 250 }],
    [187, { r187: 40 }],
    [188, { r188: '150 150 150' }],
    [197, { r197: 24 }],
    [198, { r198: 12 }],
  ] as const)('is critical when attribute %i has a large raw count', (id, raw) => {
    const r = parseSmart(ata(raw));
    expect(attr(r, id)?.risk).toBe('critical');
    expect(r.risk).toBe('critical');
  });

  it('is critical when a watched counter grew since the previous reading', () => {
    const before = parseSmart(ata({ r197: 2 }));
    expect(attr(before, 197)?.risk).toBe('warning');
    const after = parseSmart(ata({ r197: 3 }), before);
    expect(attr(after, 197)?.risk).toBe('critical');
    expect(attr(after, 197)?.reason).toBe('raw count grew from 2 to 3');
    // Unchanged counts stay a warning.
    expect(attr(parseSmart(ata({ r197: 2 }), before), 197)?.risk).toBe('warning');
  });

  it('is critical when a normalised value is at or below its threshold, and when the self-assessment failed', () => {
    const r = parseSmart(ata({ value5: 5, r5: 1800, overall: 'FAILED!' }));
    expect(attr(r, 5)).toMatchObject({ whenFailed: 'FAILING_NOW', risk: 'critical' });
    expect(r.findings.map((f) => f.subject)).toContain('overall health');
  });

  it('reads the brief layout too', () => {
    const text = [
      'ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE',
      '  5 Reallocated_Sector_Ct   PO--CK   100   100   010    -    12',
      '197 Current_Pending_Sector  -O--C-   100   100   000    -    0',
      '                            ||||||_ K auto-keep',
      '                            |_____ P prefailure warning',
    ].join('\n');
    const r = parseSmart(text);
    expect(r.attributes.map((a) => [a.id, a.type, a.rawNumber, a.risk])).toEqual([
      [5, 'Pre-fail', 12, 'warning'],
      [197, 'Old_age', 0, 'ok'],
    ]);
  });
});

describe('parseSmart: NVMe', () => {
  it('reads the health log fields and identity', () => {
    const r = parseSmart(nvme());
    expect(r.kind).toBe('nvme');
    expect(r.model).toBe('SAMSUNG MZQL23T8HCLS-00A07');
    expect(r.nvme).toMatchObject({ criticalWarning: 0, temperatureC: 38, availableSpare: 100, availableSpareThreshold: 10, percentageUsed: 3, mediaErrors: 0, powerOnHours: 12345, unsafeShutdowns: 4 });
    expect(r.nvme?.fields.map((f) => f.label)).toContain('Warning  Comp. Temperature Time');
    // The error and self-test logs after the blank line are not part of the health fields.
    expect(r.nvme?.fields.map((f) => f.label).at(-1)).toBe('Warning  Comp. Temperature Time');
    expect(r.risk).toBe('ok');
  });

  it('is critical when a critical warning bit is set', () => {
    const r = parseSmart(nvme({ critical: '0x04' }));
    expect(r.nvme?.criticalWarning).toBe(4);
    expect(r.nvme?.fields.find((f) => f.label === 'Critical Warning')?.risk).toBe('critical');
    expect(r.risk).toBe('critical');
  });

  it('is critical when the available spare is below its threshold, not when equal', () => {
    expect(parseSmart(nvme({ spare: 9 })).risk).toBe('critical');
    expect(parseSmart(nvme({ spare: 10 })).risk).toBe('ok');
  });

  it('warns at 90 % used and above, not at 89 %', () => {
    expect(parseSmart(nvme({ used: 90 })).findings).toEqual([{ risk: 'warning', subject: 'Percentage Used', message: '90% of the rated endurance is used' }]);
    expect(parseSmart(nvme({ used: 89 })).risk).toBe('ok');
  });

  it('warns on media errors, counting thousands separators', () => {
    const r = parseSmart(nvme({ media: '1,204' }));
    expect(r.nvme?.mediaErrors).toBe(1204);
    expect(r.risk).toBe('warning');
  });

  it('calls a health log without any field a risk is read from unknown, not NVMe', () => {
    const r = parseSmart(['SMART/Health Information (NVMe Log 0x02)', 'Data Units Read:                    1,234,567 [632 GB]', 'Host Read Commands:                 5', ''].join('\n'));
    expect(r).toMatchObject({ kind: 'unknown', risk: 'unknown' });
  });

  it('takes the first of two lines of one figure', () => {
    const r = parseSmart(nvme().replace('Warning  Comp. Temperature Time:    0', 'Temperature:                        71 Celsius'));
    expect(r.nvme?.temperatureC).toBe(38);
  });

  it("reads nvme-cli's smart-log names as well", () => {
    const text = ['Smart Log for NVME device:nvme0 namespace-id:ffffffff', 'critical_warning   : 0', 'available_spare    : 4%', 'available_spare_threshold : 10%', 'percentage_used    : 12%', 'media_errors       : 0'].join('\n');
    const r = parseSmart(text);
    expect(r.kind).toBe('nvme');
    expect(r.nvme).toMatchObject({ criticalWarning: 0, availableSpare: 4, availableSpareThreshold: 10, percentageUsed: 12 });
    expect(r.risk).toBe('critical');
  });
});

describe('parseSmart: robustness', () => {
  it('calls text that is not SMART unknown, never ok, and says why', () => {
    expect(parseSmart('')).toMatchObject({ kind: 'unknown', attributes: [], risk: 'unknown', findings: [{ risk: 'unknown', subject: 'format' }] });
    const r = parseSmart('garbage: yes\n\u0000\u0001 binary\nID# ATTRIBUTE_NAME\n  x y z\n');
    expect(r.kind).toBe('unknown');
    expect(r.risk).toBe('unknown');
  });

  it('reads attribute rows only in the table under its header', () => {
    const row = '  5 Reallocated_Sector_Ct   0x0033   100   100   010    Pre-fail  Always       -       12';
    expect(parseSmart(row)).toMatchObject({ kind: 'unknown', attributes: [] });
    // A blank line ends the table: a row-like line after it is something else's.
    const r = parseSmart(`${ata()}\n${row}\n`);
    expect(r.attributes.filter((a) => a.id === 5)).toHaveLength(1);
    expect(r.risk).toBe('ok');
  });

  it('keeps parsing rows after a line it does not understand ends nothing else', () => {
    const text = ata({ r5: 3 }).replace('Vendor Specific SMART Attributes with Thresholds:', 'Some new banner: v2\nVendor Specific SMART Attributes with Thresholds:');
    expect(attr(parseSmart(text), 5)?.risk).toBe('warning');
  });

  it('takes the first number of a raw value', () => {
    expect(firstNumber('12345h+23m+12.345s')).toBe(12345);
    expect(firstNumber('0x0a')).toBe(10);
    expect(firstNumber('1,234 [632 GB]')).toBe(1234);
    expect(firstNumber('none')).toBeUndefined();
    expect(firstNumber(' \t0x0A')).toBe(10);
    // Not hex after all: the 0 is the number.
    expect(firstNumber('0xZZ')).toBe(0);
  });
});
