import type { DriveState, DriveWear } from './model.js';

/** Wear counters of a drive at simulated time `nowMs`: degrading drives get worse as time passes. */
export function wearAt(drive: DriveState, nowMs: number): DriveWear {
  const w = drive.wear;
  const hours = Math.max(0, (nowMs - drive.wearEpochMs) / 3_600_000);
  const rate = w.degradePerHour;
  const failed = drive.status === 'Failed';
  return {
    ...w,
    powerOnHours: w.powerOnHours + Math.floor(hours),
    reallocated: w.reallocated + Math.floor(rate * hours) + (failed ? 1800 : 0),
    pending: w.pending + Math.floor((rate / 3) * hours) + (failed ? 320 : 0),
    uncorrectable: w.uncorrectable + Math.floor((rate / 8) * hours) + (failed ? 96 : 0),
    reportedUncorrect: w.reportedUncorrect + Math.floor((rate / 4) * hours) + (failed ? 140 : 0),
    availableSpare: failed ? 2 : Math.max(0, w.availableSpare - Math.floor((rate / 4) * hours)),
    mediaErrors: w.mediaErrors + Math.floor((rate / 2) * hours) + (failed ? 500 : 0),
    percentageUsed: w.percentageUsed + Math.floor(hours / 2000),
    dataUnitsRead: w.dataUnitsRead + Math.floor(hours * 20_000),
    dataUnitsWritten: w.dataUnitsWritten + Math.floor(hours * 12_000),
  };
}

/** Threshold past which a degrading drive is reported Degraded rather than Warning. */
export const DEGRADED_REALLOCATED = 400;

/** Status a degrading drive has at `nowMs` (healthy, failed and missing drives keep theirs). */
export function degradingStatus(drive: DriveState, nowMs: number): 'Warning' | 'Degraded' {
  const w = wearAt(drive, nowMs);
  if (drive.type === 'NVMe') return w.availableSpare < 10 || w.mediaErrors >= 200 ? 'Degraded' : 'Warning';
  return w.reallocated >= DEGRADED_REALLOCATED ? 'Degraded' : 'Warning';
}

export function degradingMessage(drive: DriveState, nowMs: number): string {
  const w = wearAt(drive, nowMs);
  return drive.type === 'NVMe'
    ? `Available spare ${w.availableSpare}% and ${w.mediaErrors} media errors: replace the drive soon.`
    : `Reallocated sectors ${w.reallocated}, pending sectors ${w.pending}: replace the drive soon.`;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function capacityText(bytes: number): string {
  return `${fmt(bytes)} bytes [${(bytes / 1e12).toFixed(1)} TB]`;
}

function header(): string[] {
  return [
    'smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0-91-generic] (local build)',
    'Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org',
    '',
    '=== START OF INFORMATION SECTION ===',
  ];
}

/** ATA attribute row in smartctl -A layout. */
function row(id: number, name: string, flag: string, value: number, worst: number, thresh: number, type: string, updated: string, raw: string): string {
  const failing = value <= thresh && thresh > 0 ? 'FAILING_NOW' : '-';
  const pad3 = (n: number): string => String(n).padStart(3, '0');
  return `${String(id).padStart(3, ' ')} ${name.padEnd(23, ' ')} ${flag}   ${pad3(value)}   ${pad3(worst)}   ${pad3(thresh)}    ${type.padEnd(9, ' ')} ${updated.padEnd(8, ' ')} ${failing.padStart(11, ' ').padEnd(12, ' ')}${raw}`;
}

function normalised(count: number, scale: number): number {
  return Math.max(1, 100 - Math.floor(count / scale));
}

function ataText(drive: DriveState, w: DriveWear): string {
  const failed = drive.status === 'Failed';
  const realloc = normalised(w.reallocated, 20);
  const lines = [
    ...header(),
    `Device Model:     ${drive.model}`,
    `Serial Number:    ${drive.serial}`,
    `Firmware Version: ${drive.firmware}`,
    `User Capacity:    ${capacityText(drive.capacityBytes)}`,
    `Sector Sizes:     ${drive.logicalSector} bytes logical, ${drive.physicalSector} bytes physical`,
    `Rotation Rate:    ${drive.rotationRate === 'Solid State Device' ? 'Solid State Device' : drive.rotationRate}`,
    `Device is:        Not in smartctl database 7.3/5319`,
    'ATA Version is:   ACS-4 T13/BSR INCITS 529 revision 5',
    'SATA Version is:  SATA 3.3, 6.0 Gb/s (current: 6.0 Gb/s)',
    'SMART support is: Available - device has SMART capability.',
    'SMART support is: Enabled',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    `SMART overall-health self-assessment test result: ${failed ? 'FAILED!' : 'PASSED'}`,
    ...(failed ? ['Drive failure expected in less than 24 hours. SAVE ALL DATA.'] : []),
    '',
    'SMART Attributes Data Structure revision number: 10',
    'Vendor Specific SMART Attributes with Thresholds:',
    'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE',
    row(1, 'Raw_Read_Error_Rate', '0x000f', 82, 64, 44, 'Pre-fail', 'Always', String(180_000_000 + w.powerOnHours * 13)),
    row(3, 'Spin_Up_Time', '0x0003', drive.type === 'HDD' ? 91 : 100, 90, 0, 'Pre-fail', 'Always', '0'),
    row(4, 'Start_Stop_Count', '0x0032', 100, 100, 20, 'Old_age', 'Always', String(w.powerCycles)),
    row(5, 'Reallocated_Sector_Ct', '0x0033', failed ? 5 : realloc, failed ? 5 : realloc, 10, 'Pre-fail', 'Always', String(w.reallocated)),
    row(9, 'Power_On_Hours', '0x0032', normalised(w.powerOnHours, 1000), normalised(w.powerOnHours, 1000), 0, 'Old_age', 'Always', String(w.powerOnHours)),
    row(12, 'Power_Cycle_Count', '0x0032', 100, 100, 20, 'Old_age', 'Always', String(w.powerCycles)),
    row(187, 'Reported_Uncorrect', '0x0032', normalised(w.reportedUncorrect, 1), normalised(w.reportedUncorrect, 1), 0, 'Old_age', 'Always', String(w.reportedUncorrect)),
    row(188, 'Command_Timeout', '0x0032', 100, 100, 0, 'Old_age', 'Always', `${w.commandTimeout} ${w.commandTimeout} ${w.commandTimeout}`),
    row(194, 'Temperature_Celsius', '0x0022', w.temperatureC, 45, 0, 'Old_age', 'Always', `${w.temperatureC} (Min/Max 19/46)`),
    row(197, 'Current_Pending_Sector', '0x0012', normalised(w.pending, 4), normalised(w.pending, 4), 0, 'Old_age', 'Always', String(w.pending)),
    row(198, 'Offline_Uncorrectable', '0x0010', normalised(w.uncorrectable, 2), normalised(w.uncorrectable, 2), 0, 'Old_age', 'Offline', String(w.uncorrectable)),
    row(199, 'UDMA_CRC_Error_Count', '0x003e', 200, 200, 0, 'Old_age', 'Always', String(w.crcErrors)),
    '',
  ];
  return lines.join('\n');
}

function nvmeText(drive: DriveState, w: DriveWear): string {
  const critical = (w.availableSpare < 10 ? 0x01 : 0) | (drive.status === 'Failed' ? 0x04 : 0);
  const units = (n: number): string => `${fmt(n)} [${((n * 512_000) / 1e12).toFixed(1)} TB]`;
  const lines = [
    ...header(),
    `Model Number:                       ${drive.model}`,
    `Serial Number:                      ${drive.serial}`,
    `Firmware Version:                   ${drive.firmware}`,
    'PCI Vendor/Subsystem ID:            0x144d',
    `Total NVM Capacity:                 ${capacityText(drive.capacityBytes)}`,
    'Number of Namespaces:               1',
    `Namespace 1 Size/Capacity:          ${capacityText(drive.capacityBytes)}`,
    `Namespace 1 Formatted LBA Size:     ${drive.logicalSector}`,
    '',
    '=== START OF SMART DATA SECTION ===',
    `SMART overall-health self-assessment test result: ${critical ? 'FAILED!' : 'PASSED'}`,
    ...(critical & 0x01 ? ['- available spare has fallen below threshold'] : []),
    ...(critical & 0x04 ? ['- NVM subsystem reliability has been degraded'] : []),
    '',
    'SMART/Health Information (NVMe Log 0x02)',
    `Critical Warning:                   0x${critical.toString(16).padStart(2, '0')}`,
    `Temperature:                        ${w.temperatureC} Celsius`,
    `Available Spare:                    ${w.availableSpare}%`,
    'Available Spare Threshold:          10%',
    `Percentage Used:                    ${w.percentageUsed}%`,
    `Data Units Read:                    ${units(w.dataUnitsRead)}`,
    `Data Units Written:                 ${units(w.dataUnitsWritten)}`,
    `Host Read Commands:                 ${fmt(w.dataUnitsRead * 31)}`,
    `Host Write Commands:                ${fmt(w.dataUnitsWritten * 27)}`,
    `Controller Busy Time:               ${fmt(Math.floor(w.powerOnHours * 1.7))}`,
    `Power Cycles:                       ${w.powerCycles}`,
    `Power On Hours:                     ${fmt(w.powerOnHours)}`,
    `Unsafe Shutdowns:                   ${w.unsafeShutdowns}`,
    `Media and Data Integrity Errors:    ${w.mediaErrors}`,
    `Error Information Log Entries:      ${w.mediaErrors * 2}`,
    'Warning  Comp. Temperature Time:    0',
    'Critical Comp. Temperature Time:    0',
    '',
  ];
  return lines.join('\n');
}

/** smartctl-like text: the ATA attribute table for HDD/SSD, the NVMe SMART/Health log for NVMe. */
export function smartText(drive: DriveState, nowMs: number): string {
  const w = wearAt(drive, nowMs);
  return drive.type === 'NVMe' ? nvmeText(drive, w) : ataText(drive, w);
}
