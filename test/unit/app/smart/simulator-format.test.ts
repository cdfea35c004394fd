import { describe, expect, it } from 'vitest';
import { parseSmart } from '../../../../app/smart/parse.js';
import type { DriveState } from '../../../../simulator/state/model.js';
import { sasSmartText } from '../../../../simulator/state/sas-smart.js';
import { smartText } from '../../../../simulator/state/smart.js';

/** The parser against the text the simulator really prints (its layout is the contract). */
function drive(type: DriveState['type'], wear: Partial<DriveState['wear']> = {}, status: DriveState['status'] = 'OK'): DriveState {
  return {
    id: 7, serial: 'SER7', status, errMsg: '', sensors: [],
    name: 'd7', device: '/dev/sdh', slot: 7, type, vendor: 'V', model: 'MODEL-7', firmware: 'FW1', capacityBytes: 4e12,
    rotationRate: type === 'HDD' ? '7200 rpm' : 'Solid State Device', physicalSector: 4096, logicalSector: 512, enclosureIndex: 0,
    pool: 'p', approved: 'Approved', sed: 'NotSupported', ledOn: false, wearEpochMs: 0,
    wear: {
      powerOnHours: 100, powerCycles: 3, temperatureC: 35, reallocated: 0, pending: 0, uncorrectable: 0, reportedUncorrect: 0,
      commandTimeout: 0, crcErrors: 0, degradePerHour: 0, availableSpare: 100, percentageUsed: 2, mediaErrors: 0,
      dataUnitsRead: 10, dataUnitsWritten: 10, unsafeShutdowns: 0, ...wear,
    },
  };
}

describe('parseSmart on simulator output', () => {
  it('reads a healthy HDD as ok with every attribute', () => {
    const r = parseSmart(smartText(drive('HDD'), 0));
    expect(r.kind).toBe('ata');
    expect(r.serial).toBe('SER7');
    expect(r.attributes.map((a) => a.id)).toEqual([1, 3, 4, 5, 9, 12, 187, 188, 194, 197, 198, 199]);
    expect(r.risk).toBe('ok');
  });

  it('flags a degrading HDD on its reallocated and pending sectors', () => {
    const r = parseSmart(smartText(drive('HDD', { reallocated: 40, pending: 3 }), 0));
    expect(r.attributes.filter((a) => a.risk !== 'ok').map((a) => [a.id, a.risk])).toEqual([
      [5, 'warning'],
      [197, 'warning'],
    ]);
  });

  it('reads a failed HDD as critical', () => {
    expect(parseSmart(smartText(drive('SSD', {}, 'Failed'), 0)).risk).toBe('critical');
  });

  it('reads NVMe health and flags a spare below threshold', () => {
    const ok = parseSmart(smartText(drive('NVMe'), 0));
    expect(ok).toMatchObject({ kind: 'nvme', risk: 'ok', nvme: { criticalWarning: 0, availableSpare: 100, availableSpareThreshold: 10, percentageUsed: 2 } });
    const worn = parseSmart(smartText(drive('NVMe', { availableSpare: 6, mediaErrors: 12 }), 0));
    expect(worn.risk).toBe('critical');
    expect(worn.findings.map((f) => f.subject).sort()).toEqual(['Available Spare', 'Critical Warning', 'Media and Data Integrity Errors', 'overall health']);
  });
});

describe('parseSmart on the simulator\'s sas-smart dialect', () => {
  it('reads a healthy SAS HDD and SAS SSD as ok SCSI reports', () => {
    const hdd = parseSmart(sasSmartText(drive('HDD'), 0, undefined) ?? '');
    expect(hdd).toMatchObject({ kind: 'scsi', serial: 'SER7', overallHealth: 'OK', risk: 'ok', findings: [] });
    expect(hdd.scsi?.errorCounters.map((c) => c.operation)).toEqual(['read', 'write', 'verify']);
    const ssd = parseSmart(sasSmartText(drive('SSD'), 0, undefined) ?? '');
    expect(ssd).toMatchObject({ kind: 'scsi', risk: 'ok', scsi: { enduranceUsedPercent: 2 } });
  });

  it('rates the drive with grown defects critical, the unreadable one unknown, a failed one critical', () => {
    const bad = parseSmart(sasSmartText(drive('HDD'), 0, 'grown-defects') ?? '');
    expect(bad.risk).toBe('critical');
    expect(bad.scsi).toMatchObject({ grownDefects: 2500 });
    expect(bad.scsi?.errorCounters[0]).toMatchObject({ operation: 'read', uncorrected: 57, risk: 'critical' });
    expect(parseSmart(sasSmartText(drive('HDD'), 0, 'unreadable') ?? '')).toMatchObject({ kind: 'unknown', risk: 'unknown' });
    const failed = parseSmart(sasSmartText(drive('HDD', {}, 'Failed'), 0, undefined) ?? '');
    expect(failed.findings.map((f) => `${f.risk} ${f.subject}`)).toEqual(
      expect.arrayContaining(['critical SMART Health Status', 'critical Elements in grown defect list', 'critical read: Total uncorrected errors']),
    );
  });

  it('keeps NVMe drives out of the dialect', () => {
    expect(sasSmartText(drive('NVMe'), 0, undefined)).toBeUndefined();
  });
});
