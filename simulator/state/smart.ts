import type { DriveState, DriveWear, SystemState } from './model.js';

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

/** One ATA attribute as smartctl reads it; `past`: it failed in the past (WHEN_FAILED `In_the_past`). */
interface AtaRow {
  id: number;
  name: string;
  flag: string;
  value: number;
  worst: number;
  thresh: number;
  type: string;
  updated: string;
  raw: string;
  past?: boolean;
}

const r = (id: number, name: string, flag: string, value: number, worst: number, thresh: number, type: string, updated: string, raw: string): AtaRow => ({ id, name, flag, value, worst, thresh, type, updated, raw });

const failingNow = (a: AtaRow): boolean => a.value <= a.thresh && a.thresh > 0;
const pad3 = (n: number): string => String(n).padStart(3, '0');

/** ATA attribute row in smartctl -A layout. */
function row(a: AtaRow): string {
  const failing = failingNow(a) ? 'FAILING_NOW' : a.past ? 'In_the_past' : '-';
  return `${String(a.id).padStart(3, ' ')} ${a.name.padEnd(23, ' ')} ${a.flag}   ${pad3(a.value)}   ${pad3(a.worst)}   ${pad3(a.thresh)}    ${a.type.padEnd(9, ' ')} ${a.updated.padEnd(8, ' ')} ${failing.padStart(11, ' ').padEnd(12, ' ')}${a.raw}`;
}

/** The brief layout's flags (`smartctl -x`, `-f brief`): P O S R C K for bits 0-5, `-` when unset. */
function briefFlags(flag: string): string {
  const bits = Number.parseInt(flag, 16);
  return 'POSRCK'.split('').map((c, i) => (bits & (1 << i) ? c : '-')).join('');
}

/** ATA attribute row in smartctl's brief layout (`-x`): FAIL is `-`, `NOW` or `Past`. */
function briefRow(a: AtaRow): string {
  const fail = failingNow(a) ? 'NOW' : a.past ? 'Past' : '-';
  return `${String(a.id).padStart(3, ' ')} ${a.name.padEnd(23, ' ')} ${briefFlags(a.flag).padEnd(8, ' ')} ${pad3(a.value)}   ${pad3(a.worst)}   ${pad3(a.thresh)}    ${fail.padEnd(4, ' ')} ${a.raw}`;
}

function normalised(count: number, scale: number): number {
  return Math.max(1, 100 - Math.floor(count / scale));
}

/** The attribute table of an ATA drive; `past`: Spin_Up_Time failed in the past (and recovered). */
function ataRows(drive: DriveState, w: DriveWear, past: boolean): AtaRow[] {
  const failed = drive.status === 'Failed';
  const realloc = normalised(w.reallocated, 20);
  return [
    r(1, 'Raw_Read_Error_Rate', '0x000f', 82, 64, 44, 'Pre-fail', 'Always', String(180_000_000 + w.powerOnHours * 13)),
    { ...r(3, 'Spin_Up_Time', '0x0003', drive.type === 'HDD' ? 91 : 100, 90, 0, 'Pre-fail', 'Always', '0'), past },
    r(4, 'Start_Stop_Count', '0x0032', 100, 100, 20, 'Old_age', 'Always', String(w.powerCycles)),
    r(5, 'Reallocated_Sector_Ct', '0x0033', failed ? 5 : realloc, failed ? 5 : realloc, 10, 'Pre-fail', 'Always', String(w.reallocated)),
    r(9, 'Power_On_Hours', '0x0032', normalised(w.powerOnHours, 1000), normalised(w.powerOnHours, 1000), 0, 'Old_age', 'Always', String(w.powerOnHours)),
    r(12, 'Power_Cycle_Count', '0x0032', 100, 100, 20, 'Old_age', 'Always', String(w.powerCycles)),
    r(187, 'Reported_Uncorrect', '0x0032', normalised(w.reportedUncorrect, 1), normalised(w.reportedUncorrect, 1), 0, 'Old_age', 'Always', String(w.reportedUncorrect)),
    r(188, 'Command_Timeout', '0x0032', 100, 100, 0, 'Old_age', 'Always', `${w.commandTimeout} ${w.commandTimeout} ${w.commandTimeout}`),
    r(194, 'Temperature_Celsius', '0x0022', w.temperatureC, 45, 0, 'Old_age', 'Always', `${w.temperatureC} (Min/Max 19/46)`),
    r(197, 'Current_Pending_Sector', '0x0012', normalised(w.pending, 4), normalised(w.pending, 4), 0, 'Old_age', 'Always', String(w.pending)),
    r(198, 'Offline_Uncorrectable', '0x0010', normalised(w.uncorrectable, 2), normalised(w.uncorrectable, 2), 0, 'Old_age', 'Offline', String(w.uncorrectable)),
    r(199, 'UDMA_CRC_Error_Count', '0x003e', 200, 200, 0, 'Old_age', 'Always', String(w.crcErrors)),
  ];
}

function ataText(drive: DriveState, w: DriveWear, form: SmartForm): string {
  const failed = drive.status === 'Failed';
  const rows = ataRows(drive, w, form.past);
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
    ...(form.brief
      ? ['Vendor Specific SMART Attributes with Thresholds:', 'ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE', ...rows.map(briefRow), '                            ||||||_ K auto-keep', '                            |||||__ C event count', '                            ||||___ R error rate', '                            |||____ S speed/performance', '                            ||_____ O updated online', '                            |______ P prefailure warning']
      : ['Vendor Specific SMART Attributes with Thresholds:', 'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE', ...rows.map(row)]),
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

/** The drive whose Spin_Up_Time failed in the past in the `smart-brief` dialect: the first node's first healthy, undegraded ATA drive. */
export function pastFailureDrive(system: SystemState): DriveState | undefined {
  return system.nodes[0]?.drives.find((d) => d.type !== 'NVMe' && d.status === 'OK' && d.wear.degradePerHour === 0 && d.wear.reallocated === 0 && d.wear.pending === 0 && d.wear.uncorrectable === 0 && d.wear.reportedUncorrect === 0 && d.wear.commandTimeout === 0);
}

/** How an ATA drive's text is printed: the brief table (`-x`), and whether Spin_Up_Time failed in the past. */
export interface SmartForm {
  brief: boolean;
  past: boolean;
}

/** smartctl-like text: the ATA attribute table for HDD/SSD, the NVMe SMART/Health log for NVMe. */
export function smartText(drive: DriveState, nowMs: number, form: SmartForm = { brief: false, past: false }): string {
  const w = wearAt(drive, nowMs);
  return drive.type === 'NVMe' ? nvmeText(drive, w) : ataText(drive, w, form);
}

/** What `smartctl --json -a` writes for the drive: the same readings as {@link smartText}. */
export function smartJson(drive: DriveState, nowMs: number, form: SmartForm = { brief: false, past: false }): Record<string, unknown> {
  const w = wearAt(drive, nowMs);
  const nvme = drive.type === 'NVMe';
  const critical = (w.availableSpare < 10 ? 0x01 : 0) | (drive.status === 'Failed' ? 0x04 : 0);
  const base = {
    json_format_version: [1, 0],
    smartctl: { version: [7, 3], exit_status: 0 },
    device: { name: drive.device, type: nvme ? 'nvme' : 'sat', protocol: nvme ? 'NVMe' : 'ATA' },
    model_name: drive.model,
    serial_number: drive.serial,
    firmware_version: drive.firmware,
    smart_status: { passed: nvme ? critical === 0 : drive.status !== 'Failed' },
  };
  if (nvme) {
    return {
      ...base,
      nvme_smart_health_information_log: {
        critical_warning: critical,
        temperature: w.temperatureC,
        available_spare: w.availableSpare,
        available_spare_threshold: 10,
        percentage_used: w.percentageUsed,
        power_cycles: w.powerCycles,
        power_on_hours: w.powerOnHours,
        unsafe_shutdowns: w.unsafeShutdowns,
        media_errors: w.mediaErrors,
        num_err_log_entries: w.mediaErrors * 2,
      },
    };
  }
  const table = ataRows(drive, w, form.past).map((a) => {
    const bits = Number.parseInt(a.flag, 16);
    return {
      id: a.id,
      name: a.name,
      value: a.value,
      worst: a.worst,
      thresh: a.thresh,
      when_failed: failingNow(a) ? 'now' : a.past ? 'past' : '',
      flags: { value: bits, string: `${briefFlags(a.flag)} `, prefailure: (bits & 1) === 1, updated_online: (bits & 2) === 2 },
      raw: { value: Number.parseInt(a.raw, 10) || 0, string: a.raw },
    };
  });
  return { ...base, ata_smart_attributes: { revision: 10, table } };
}
