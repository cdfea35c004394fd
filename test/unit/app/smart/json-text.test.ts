import { describe, expect, it } from 'vitest';
import { isSmartctlJson, smartctlJsonText } from '../../../../app/smart/json.js';
import { parseSmart } from '../../../../app/smart/parse.js';

const read = (doc: object) => parseSmart(JSON.stringify(doc));

describe('which answers are smartctl’s JSON', () => {
  it('knows it by its smartctl or format member or a SMART section, and nothing else', () => {
    for (const k of ['smartctl', 'json_format_version', 'ata_smart_attributes', 'nvme_smart_health_information_log', 'scsi_grown_defect_list', 'smart_status']) expect(isSmartctlJson({ [k]: 1 }), k).toBe(true);
    expect(isSmartctlJson({ model_name: 'x' })).toBe(false);
    expect(isSmartctlJson([{ smartctl: 1 }])).toBe(false);
    expect(isSmartctlJson(null)).toBe(false);
    expect(isSmartctlJson('smartctl')).toBe(false);
  });
});

describe('an ATA document', () => {
  const doc = (table: unknown[], more: object = {}) => ({ json_format_version: [1, 0], device: { protocol: 'ATA' }, model_name: 'HDD 9000', serial_number: 'S123', firmware_version: 'FW1', ata_smart_attributes: { table }, ...more });

  it('reads each attribute’s figures, flags and raw value as the text table holds them', () => {
    const r = read(
      doc([
        // Entries it cannot print come first: skipped, they must not end the table.
        { id: 12, name: 'no value' },
        { name: 'no id', value: 1 },
        'not an attribute',
        { id: 5, name: 'Reallocated  Sector Ct', value: 100, worst: 98, thresh: 10, when_failed: '', flags: { value: 0x33, prefailure: true, updated_online: true }, raw: { value: 7, string: '7 (Min/Max 1/9)' } },
        { id: 9, name: 'Power_On_Hours', value: 99, flags: { value: 0x12, prefailure: false, updated_online: false }, raw: { value: 1234 } },
        { id: 194, value: 64, raw: 36 },
      ]),
    );
    expect(r).toMatchObject({ kind: 'ata', model: 'HDD 9000', serial: 'S123', firmware: 'FW1' });
    expect(r.attributes.map((a) => [a.id, a.name, a.flag, a.value, a.worst, a.thresh, a.type, a.updated, a.whenFailed, a.raw])).toEqual([
      [5, 'Reallocated_Sector_Ct', '0x0033', 100, 98, 10, 'Pre-fail', 'Always', '-', '7 (Min/Max 1/9)'],
      [9, 'Power_On_Hours', '0x0012', 99, 99, undefined, 'Old_age', 'Offline', '-', '1234'],
      [194, 'Unknown_Attribute', '0x0000', 64, 64, undefined, 'Old_age', 'Always', '-', '36'],
    ]);
    expect(r.attributes[0]).toMatchObject({ rawNumber: 7, risk: 'warning' });
  });

  it('knows the document after white space before it', () => {
    expect(parseSmart(`\n  ${JSON.stringify(doc([{ id: 5, name: 'Reallocated_Sector_Ct', value: 100, thresh: 10, raw: { value: 0 } }]))}`)).toMatchObject({ kind: 'ata', risk: 'ok' });
  });

  it('prints an attribute without a raw value with an empty raw value', () => {
    const r = read(doc([{ id: 9, name: 'Power_On_Hours', value: 99, raw: {} }, { id: 12, name: 'Power_Cycle_Count', value: 99 }]));
    expect(r.attributes.map((a) => [a.id, a.raw, a.rawNumber])).toEqual([
      [9, '', undefined],
      [12, '', undefined],
    ]);
  });

  it('reads a document with a verdict but no attribute table, health log or SCSI section as no layout: unknown', () => {
    expect(read({ smartctl: {}, smart_status: { passed: true } })).toMatchObject({ kind: 'unknown', risk: 'unknown', overallHealth: 'PASSED' });
  });

  it('reads when_failed: empty or "-" as never, now and past in any case, other words as not understood', () => {
    const risk = (when_failed: unknown) => read(doc([{ id: 1, name: 'Raw_Read_Error_Rate', value: 100, thresh: 6, when_failed, raw: { value: 0 } }])).attributes[0];
    expect(risk('')?.whenFailed).toBe('-');
    expect(risk('-')?.whenFailed).toBe('-');
    expect(risk(undefined)?.whenFailed).toBe('-');
    expect(risk('NOW')).toMatchObject({ whenFailed: 'FAILING_NOW', risk: 'critical' });
    expect(risk(' Past ')).toMatchObject({ whenFailed: 'In_the_past', risk: 'warning' });
    expect(risk('some  time')).toMatchObject({ whenFailed: 'some_time', risk: 'unknown' });
  });

  it('says the self-assessment as smartctl does, PASSED or FAILED!, and only when it is a boolean', () => {
    expect(read(doc([], { smart_status: { passed: true } })).overallHealth).toBe('PASSED');
    const failed = read(doc([{ id: 9, name: 'Power_On_Hours', value: 99, raw: { value: 1 } }], { smart_status: { passed: false } }));
    expect(failed).toMatchObject({ overallHealth: 'FAILED!', risk: 'critical' });
    expect(smartctlJsonText(doc([], { smart_status: { passed: 'yes' } }))).not.toMatch(/self-assessment/);
  });

  it('reads a model given as scsi_model_name or product, and numbers as text', () => {
    expect(smartctlJsonText({ scsi_model_name: 'M1', serial_number: 42 })).toBe('Device Model: M1\nSerial Number: 42');
    expect(smartctlJsonText({ product: 'P1' })).toBe('Device Model: P1');
    expect(read(doc([{ id: 9, name: 'Power_On_Hours', value: 99, raw: { value: 1 } }], { model_name: undefined })).model).toBeUndefined();
  });
});

describe('an NVMe document', () => {
  const doc = (log: object) => ({ smartctl: {}, device: { protocol: 'NVMe' }, model_name: 'NV 1', smart_status: { passed: true }, nvme_smart_health_information_log: log });

  it('names the model as NVMe does and prints each known field under its smartctl label', () => {
    const text = smartctlJsonText(doc({ critical_warning: 10, temperature: 35, available_spare: 100, available_spare_threshold: 10, percentage_used: 3, power_cycles: 5, power_on_hours: 6, unsafe_shutdowns: 7, media_errors: 0, num_err_log_entries: 8, other: 1 }));
    expect(text).toContain('Model Number: NV 1');
    expect(text.split('\n').slice(3)).toEqual([
      'SMART/Health Information (NVMe Log 0x02)',
      'Critical Warning: 0x0a',
      'Temperature: 35 Celsius',
      'Available Spare: 100%',
      'Available Spare Threshold: 10%',
      'Percentage Used: 3%',
      'Power Cycles: 5',
      'Power On Hours: 6',
      'Unsafe Shutdowns: 7',
      'Media and Data Integrity Errors: 0',
      'Error Information Log Entries: 8',
      '',
    ]);
  });

  it('rates the log by the parser’s rules, and a rated field that is no number as unknown', () => {
    expect(read(doc({ critical_warning: 0, available_spare: 5, available_spare_threshold: 10 }))).toMatchObject({ kind: 'nvme', risk: 'critical', nvme: { availableSpare: 5, availableSpareThreshold: 10 } });
    const odd = read(doc({ critical_warning: 0, media_errors: 'many' }));
    expect(odd.risk).toBe('unknown');
    expect(odd.findings[0]).toMatchObject({ subject: 'Media and Data Integrity Errors', message: 'value ""many"" not understood' });
  });
});

describe('a SCSI document', () => {
  const counters = (over: object = {}) => ({ errors_corrected_by_eccfast: 1, errors_corrected_by_eccdelayed: 2, errors_corrected_by_rereads_rewrites: 3, total_errors_corrected: 4, correction_algorithm_invocations: 5, gigabytes_processed: '12.345', total_uncorrected_errors: 0, ...over });
  const doc = (over: object = {}) => ({ smartctl: {}, device: { protocol: 'SCSI' }, scsi_model_name: 'SAS 1', smart_status: { passed: true }, temperature: { current: 30, drive_trip: 60 }, scsi_grown_defect_list: 0, scsi_error_counter_log: { read: counters(), write: counters(), verify: counters() }, ...over });

  it('reads status, temperatures, defects and every counter row as smartctl prints them', () => {
    const r = read(doc());
    expect(r).toMatchObject({ kind: 'scsi', risk: 'ok', overallHealth: 'OK', model: 'SAS 1', scsi: { temperatureC: 30, tripTemperatureC: 60, grownDefects: 0 } });
    expect(r.scsi?.errorCounters.map((c) => [c.operation, c.correctedFast, c.correctedDelayed, c.rereadsRewrites, c.totalCorrected, c.algorithmInvocations, c.gigabytesProcessed, c.uncorrected])).toEqual([
      ['read', 1, 2, 3, 4, 5, 12.345, 0],
      ['write', 1, 2, 3, 4, 5, 12.345, 0],
      ['verify', 1, 2, 3, 4, 5, 12.345, 0],
    ]);
  });

  it('says a failed status as FAILURE, the drive’s own words where it gives them, and prints an odd status as it came', () => {
    expect(read(doc({ smart_status: { passed: false } }))).toMatchObject({ overallHealth: 'FAILURE', risk: 'critical' });
    expect(read(doc({ smart_status: { passed: false, scsi: { ie_string: 'FAILURE PREDICTION THRESHOLD EXCEEDED' } } })).overallHealth).toBe('FAILURE PREDICTION THRESHOLD EXCEEDED');
    expect(read(doc({ smart_status: { passed: 'maybe' } }))).toMatchObject({ overallHealth: '"maybe"', risk: 'critical' });
  });

  it('rates a status without a verdict unknown, not a failure named "undefined"', () => {
    const r = read(doc({ smart_status: {} }));
    expect(r.risk).toBe('unknown');
    expect(r.findings).toEqual([{ risk: 'unknown', subject: 'SMART Health Status', message: 'printed without a value' }]);
  });

  it('reads the grown defect list as a count or a number, and a list it cannot read as unknown', () => {
    expect(read(doc({ scsi_grown_defect_list: { count: 3 } })).scsi?.grownDefects).toBe(3);
    expect(read(doc({ scsi_grown_defect_list: 150 }))).toMatchObject({ risk: 'critical', scsi: { grownDefects: 150 } });
    expect(read(doc({ scsi_grown_defect_list: 'lots' })).risk).toBe('unknown');
  });

  it('leaves out what is not given: a missing operation, sensors, the counter log itself (then unknown)', () => {
    const r = read(doc({ temperature: {}, scsi_error_counter_log: { read: counters({ total_uncorrected_errors: 2 }), write: 'n/a' } }));
    expect(r.scsi?.errorCounters.map((c) => c.operation)).toEqual(['read']);
    expect(r.scsi?.temperatureC).toBeUndefined();
    expect(r.scsi?.fields.map((f) => f.label)).toEqual(['Elements in grown defect list']);
    const bare = read(doc({ temperature: undefined, smart_status: undefined, scsi_grown_defect_list: undefined }));
    expect(bare.scsi?.fields).toEqual([]);
    expect(bare.findings.filter((f) => f.risk === 'unknown').map((f) => [f.subject, f.message])).toEqual([
      ['SMART Health Status', "not in the output (cut short, or another command's output?)"],
      ['Elements in grown defect list', "not in the output (cut short, or another command's output?)"],
    ]);
    expect(r.risk).toBe('warning');
    const cut = smartctlJsonText(doc({ scsi_error_counter_log: undefined }));
    expect(cut).not.toContain('Error counter log');
    expect(read(doc({ scsi_error_counter_log: undefined })).risk).toBe('unknown');
  });

  it('prints counters without a figure as 0, the gigabytes as 0.000, and an unknown uncorrected count so that the row is not understood', () => {
    const text = smartctlJsonText(doc({ scsi_error_counter_log: { read: { total_uncorrected_errors: 1 }, write: { gigabytes_processed: 7 } } }));
    expect(text).toContain('read: 0 0 0 0 0 0.000 1');
    expect(text).toContain('write: 0 0 0 0 0 7 ?');
    expect(read(doc({ scsi_error_counter_log: { write: { gigabytes_processed: 7 } } })).risk).toBe('unknown');
  });

  it('is read as SCSI by its sections alone when the protocol is not given, but not when it has an ATA table', () => {
    const bare = { smartctl: {}, smart_status: { passed: true }, scsi_grown_defect_list: 0, scsi_error_counter_log: { read: counters() } };
    expect(read(bare).kind).toBe('scsi');
    expect(read({ smartctl: {}, smart_status: { passed: true }, scsi_grown_defect_list: 0 }).kind).toBe('scsi');
    expect(read({ smartctl: {}, device: { protocol: 'scsi' }, smart_status: { passed: true } })).toMatchObject({ kind: 'scsi', overallHealth: 'OK' });
    expect(read({ smartctl: {}, smart_status: { passed: true }, scsi_error_counter_log: { read: counters() } }).kind).toBe('scsi');
    expect(read({ ...bare, ata_smart_attributes: { table: [{ id: 9, name: 'Power_On_Hours', value: 99, raw: { value: 1 } }] } }).kind).toBe('ata');
  });
});
