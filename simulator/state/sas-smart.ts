import { hashString } from '../random.js';
import type { DriveState, DriveWear, SystemState } from './model.js';
import { wearAt } from './smart.js';

/**
 * The `sas-smart` dialect: HDD and SSD drives are SAS drives, as on systems with a SAS backplane.
 * Their hardware-list identity is a SAS model of the same maker and size, and their SMART is what
 * smartctl 7.x prints for a SCSI device (health status, temperatures, the start-stop cycle counter
 * page, the grown defect list, the error counter log). The drive's state and wear stay as they
 * are; only the answers change, so the dialect can be switched on and off at any time.
 */

interface SasIdentity {
  vendor: string;
  model: string;
  firmware: string;
}

/** SAS siblings of the generated SATA models (same maker and capacity where the maker has one). */
const SAS_MODELS: Readonly<Record<string, SasIdentity>> = {
  'ST16000NM001G-2KK103': { vendor: 'SEAGATE', model: 'ST16000NM002G', firmware: 'E003' },
  'ST12000NM001G-2MV103': { vendor: 'SEAGATE', model: 'ST12000NM002G', firmware: 'E004' },
  WUH721816ALE6L4: { vendor: 'WDC', model: 'WUH721816AL5204', firmware: 'C232' },
  MG08ACA16TE: { vendor: 'TOSHIBA', model: 'MG08SCA16TE', firmware: '0104' },
  'MZ7LH3T8HMLT-00005': { vendor: 'SAMSUNG', model: 'MZILT3T8HBLS/007', firmware: 'GXA0' },
  'MTFDDAK3T8TDS-1AW1ZABYY': { vendor: 'KIOXIA', model: 'KPM6XRUG3T84', firmware: '0103' },
  SSDSC2KB038T8: { vendor: 'WDC', model: 'WUSTR6438ASS200', firmware: 'C925' },
};

/** The SAS identity of a drive in this dialect; NVMe drives keep theirs. */
export function sasIdentity(d: DriveState): SasIdentity | undefined {
  if (d.type === 'NVMe') return undefined;
  return SAS_MODELS[d.model] ?? { vendor: d.vendor, model: d.model, firmware: d.firmware };
}

/** What a drive shows in this dialect beyond its own wear: the reviewer's findings, once per system. */
export type SasRole = 'grown-defects' | 'unreadable';

/** Extra counts of the drive with the grown defect list. */
export const SAS_BAD_DRIVE = { grownDefects: 2500, uncorrectedReads: 57 } as const;

/**
 * On the first node of a system, the first approved HDD that is neither degrading nor missing has
 * the grown defects (so its counts are exactly the finding's) and the second answers text smartctl
 * prints on failure.
 */
export function sasRole(system: SystemState, d: DriveState): SasRole | undefined {
  const hdds = (system.nodes[0]?.drives ?? []).filter((x) => x.type === 'HDD' && x.approved === 'Approved' && x.wear.degradePerHour === 0 && x.status !== 'Missing');
  if (hdds[0] === d) return 'grown-defects';
  if (hdds[1] === d) return 'unreadable';
  return undefined;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function banner(): string[] {
  return ['smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0-91-generic] (local build)', 'Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org', ''];
}

/** One error counter row: the seven columns of smartctl's table, right-aligned. */
function counterRow(op: string, c: readonly number[], gigabytes: number, uncorrected: number): string {
  const widths = [8, 9, 10, 10, 11];
  return `${`${op}:`.padEnd(7)}${c.map((n, i) => String(n).padStart(widths[i] as number)).join('')}${gigabytes.toFixed(3).padStart(15)}${String(uncorrected).padStart(12)}`;
}

function scsiText(drive: DriveState, w: DriveWear, role: SasRole | undefined): string {
  const id = sasIdentity(drive) ?? { vendor: drive.vendor, model: drive.model, firmware: drive.firmware };
  const ssd = drive.type === 'SSD';
  const failed = drive.status === 'Failed';
  const bad = role === 'grown-defects';
  const h = hashString(drive.serial);
  const readGb = (w.dataUnitsRead * 512_000) / 1e9;
  const writeGb = (w.dataUnitsWritten * 512_000) / 1e9;
  const corrected = (seed: number): number[] => {
    const fast = ssd ? 0 : Math.floor(w.powerOnHours * ((seed % 7) + 1));
    const delayed = ssd ? 0 : seed % 40;
    return [fast, delayed, 0, fast + delayed, Math.floor(w.powerOnHours * 3.1) + fast];
  };
  return [
    ...banner(),
    '=== START OF INFORMATION SECTION ===',
    `Vendor:               ${id.vendor}`,
    `Product:              ${id.model}`,
    `Revision:             ${id.firmware}`,
    `Compliance:           ${ssd ? 'SPC-5' : 'SPC-4'}`,
    `User Capacity:        ${fmt(drive.capacityBytes)} bytes [${(drive.capacityBytes / 1e12).toFixed(1)} TB]`,
    `Logical block size:   ${drive.logicalSector} bytes`,
    `Physical block size:  ${drive.physicalSector} bytes`,
    ssd ? 'LU is resource provisioned, LBPRZ=1' : 'LU is fully provisioned',
    `Rotation Rate:        ${ssd ? 'Solid State Device' : drive.rotationRate}`,
    `Form Factor:          ${ssd ? '2.5' : '3.5'} inches`,
    `Logical Unit id:      0x5000c500${h.toString(16).padStart(8, '0')}`,
    `Serial number:        ${drive.serial}`,
    'Device type:          disk',
    `Transport protocol:   SAS (${ssd ? 'SPL-4' : 'SPL-3'})`,
    'SMART support is:     Available - device has SMART capability.',
    'SMART support is:     Enabled',
    'Temperature Warning:  Enabled',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    `SMART Health Status: ${failed ? 'HARDWARE IMPENDING FAILURE GENERAL HARD DRIVE FAILURE [asc=5d, ascq=10]' : 'OK'}`,
    '',
    ...(ssd ? [`Percentage used endurance indicator: ${w.percentageUsed}%`] : []),
    `Current Drive Temperature:     ${w.temperatureC} C`,
    `Drive Trip Temperature:        ${ssd ? 70 : 60} C`,
    '',
    `Accumulated power on time, hours:minutes ${w.powerOnHours}:${String(h % 60).padStart(2, '0')}`,
    `Manufactured in week ${String((h % 52) + 1).padStart(2, '0')} of year ${2018 + (h % 4)}`,
    `Specified cycle count over device lifetime:  ${ssd ? 0 : 50000}`,
    `Accumulated start-stop cycles:  ${w.powerCycles}`,
    `Specified load-unload count over device lifetime:  ${ssd ? 0 : 600000}`,
    `Accumulated load-unload cycles:  ${ssd ? 0 : w.powerCycles + Math.floor(w.powerOnHours / 9)}`,
    `Elements in grown defect list: ${w.reallocated + (bad ? SAS_BAD_DRIVE.grownDefects : 0)}`,
    '',
    'Error counter log:',
    '           Errors Corrected by           Total   Correction     Gigabytes    Total',
    '               ECC          rereads/    errors   algorithm      processed    uncorrected',
    '           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors',
    counterRow('read', corrected(h), readGb, w.uncorrectable + (bad ? SAS_BAD_DRIVE.uncorrectedReads : 0)),
    counterRow('write', corrected(h >>> 3), writeGb, 0),
    ...(ssd ? [] : [counterRow('verify', corrected(h >>> 5), readGb / 40, 0)]),
    '',
    `Non-medium error count:        ${w.crcErrors + w.commandTimeout}`,
    '',
    'SMART Self-test log',
    'Num  Test              Status                 segment  LifeTime  LBA_first_err [SK ASC ASQ]',
    '     Description                              number   (hours)',
    `# 1  Background short  Completed                   -   ${String(Math.max(0, w.powerOnHours - 11)).padStart(5)}                 - [-   -    -]`,
    '',
  ].join('\n');
}

/** What smartctl prints when it cannot open a drive that sits behind a RAID controller. */
function unreadableText(drive: DriveState): string {
  return [...banner(), `Smartctl open device: ${drive.device} failed: DELL or MegaRaid controller, please try adding '-d megaraid,N'`, ''].join('\n');
}

/** SMART text of a drive in the `sas-smart` dialect (`role` from `sasRole`); undefined for NVMe drives, which keep theirs. */
export function sasSmartText(drive: DriveState, nowMs: number, role: SasRole | undefined): string | undefined {
  if (drive.type === 'NVMe') return undefined;
  return role === 'unreadable' ? unreadableText(drive) : scsiText(drive, wearAt(drive, nowMs), role);
}
