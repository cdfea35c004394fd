import { describe, expect, it } from 'vitest';
import { normaliseAnswer } from '../../../../app/answers/normalise.js';
import { getOperation } from '../../../../app/catalog/index.js';
import { parseSmart } from '../../../../app/smart/parse.js';

const ata = (whenFailed: string, value = 100, thresh = 10) =>
  JSON.stringify({
    json_format_version: [1, 0],
    device: { protocol: 'ATA' },
    smart_status: { passed: true },
    ata_smart_attributes: { table: [{ id: 5, name: 'Reallocated_Sector_Ct', value, worst: value, thresh, when_failed: whenFailed, flags: { value: 0x33, prefailure: true }, raw: { value: 0, string: '0' } }] },
  });

describe('smartctl --json', () => {
  it('reads the ATA table and its when_failed as the text table does', () => {
    expect(parseSmart(ata('')).risk).toBe('ok');
    expect(parseSmart(ata('past')).risk).toBe('warning');
    expect(parseSmart(ata('now', 5)).risk).toBe('critical');
    expect(parseSmart(ata('sometimes')).risk).toBe('unknown');
  });

  it('reads the NVMe health log', () => {
    const doc = { smartctl: {}, device: { protocol: 'NVMe' }, smart_status: { passed: true }, nvme_smart_health_information_log: { critical_warning: 0, temperature: 35, available_spare: 100, available_spare_threshold: 10, percentage_used: 95, media_errors: 0 } };
    const r = parseSmart(JSON.stringify(doc));
    expect(r.kind).toBe('nvme');
    expect(r.risk).toBe('warning');
  });

  it('reads a SAS drive\'s status, defect list and error counters', () => {
    const counters = (u: number) => ({ errors_corrected_by_eccfast: 1, errors_corrected_by_eccdelayed: 0, errors_corrected_by_rereads_rewrites: 0, total_errors_corrected: 1, correction_algorithm_invocations: 3, gigabytes_processed: '12.345', total_uncorrected_errors: u });
    const doc = { smartctl: {}, device: { protocol: 'SCSI' }, smart_status: { passed: true }, temperature: { current: 30, drive_trip: 60 }, scsi_grown_defect_list: 0, scsi_error_counter_log: { read: counters(3), write: counters(0), verify: counters(0) } };
    const r = parseSmart(JSON.stringify(doc));
    expect(r.kind).toBe('scsi');
    expect(r.risk).toBe('warning');
  });

  it('is unknown, never ok, when it holds no section it knows', () => {
    expect(parseSmart(JSON.stringify({ smartctl: { exit_status: 2 }, json_format_version: [1, 0] })).risk).toBe('unknown');
  });

  it('comes through the normaliser as its JSON text, not a protocol error', () => {
    const r = normaliseAnswer(getOperation('GET /resources/drives/smart').response, JSON.parse(ata('past')));
    expect(r.ok && parseSmart(r.value as string).risk).toBe('warning');
    expect(normaliseAnswer(getOperation('GET /resources/drives/smart').response, { other: 1 }).ok).toBe(false);
  });
});

describe('the brief ATA table', () => {
  const brief = (fail: string) =>
    ['ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE', `  3 Spin_Up_Time            PO----   091   090   000    ${fail.padEnd(4)} 0`, '                            ||||||_ K auto-keep'].join('\n');
  it('reads Past as failed in the past and NOW as failing', () => {
    expect(parseSmart(brief('-')).risk).toBe('ok');
    expect(parseSmart(brief('Past')).risk).toBe('warning');
    expect(parseSmart(brief('NOW')).risk).toBe('critical');
    expect(parseSmart(brief('Odd')).risk).toBe('unknown');
  });
});
