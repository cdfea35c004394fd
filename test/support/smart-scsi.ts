/**
 * SMART text of SAS drives in the layout smartctl 7.x prints for SCSI devices (`smartctl -a`):
 * the information section, then the health status, temperatures, the start-stop cycle counter
 * page, the grown defect list, the error counter log table and the non-medium error count. The
 * values are ours; the layout (labels, spacing, table columns) follows smartctl's SCSI output.
 */

export interface ScsiCounters {
  /** Total uncorrected errors per row; a row is left out when its value is null. */
  read?: number;
  write?: number;
  verify?: number | null;
}

export interface SasHddOptions {
  health?: string;
  temperatureC?: number;
  tripC?: number;
  grownDefects?: number | string;
  startStop?: number;
  startStopSpec?: number;
  loadUnload?: number;
  loadUnloadSpec?: number;
  uncorrected?: ScsiCounters;
  nonMedium?: number;
}

const HEADER = ['smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-18-amd64] (local build)', 'Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org', ''];

/** One row of the error counter log: seven counters right-aligned under smartctl's header. */
function counterRow(op: string, uncorrected: number, gigabytes: string): string {
  const corrected = op === 'read' ? [12, 3, 0, 15, 4021] : [0, 0, 0, 0, 1871];
  return `${`${op}:`.padEnd(7)}${corrected.map((n, i) => String(n).padStart([8, 9, 10, 10, 11][i] as number)).join('')}${gigabytes.padStart(15)}${String(uncorrected).padStart(12)}`;
}

function counterLog(u: ScsiCounters): string[] {
  return [
    'Error counter log:',
    '           Errors Corrected by           Total   Correction     Gigabytes    Total',
    '               ECC          rereads/    errors   algorithm      processed    uncorrected',
    '           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors',
    counterRow('read', u.read ?? 0, '48213.557'),
    counterRow('write', u.write ?? 0, '30977.104'),
    ...(u.verify === null ? [] : [counterRow('verify', u.verify ?? 0, '1204.880')]),
  ];
}

/** A SAS HDD (an HGST Ultrastar-like 12 TB, 7200 rpm). */
export function sasHdd(o: SasHddOptions = {}): string {
  return [
    ...HEADER,
    '=== START OF INFORMATION SECTION ===',
    'Vendor:               HGST',
    'Product:              HUH721212AL5200',
    'Revision:             A3D0',
    'Compliance:           SPC-4',
    'User Capacity:        12,000,138,625,024 bytes [12.0 TB]',
    'Logical block size:   512 bytes',
    'Physical block size:  4096 bytes',
    'LU is fully provisioned',
    'Rotation Rate:        7200 rpm',
    'Form Factor:          3.5 inches',
    'Logical Unit id:      0x5000cca2914b7e10',
    'Serial number:        8HK2QX7Z',
    'Device type:          disk',
    'Transport protocol:   SAS (SPL-3)',
    'Local Time is:        Tue Mar  4 05:06:07 2025 UTC',
    'SMART support is:     Available - device has SMART capability.',
    'SMART support is:     Enabled',
    'Temperature Warning:  Enabled',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    `SMART Health Status: ${o.health ?? 'OK'}`,
    '',
    `Current Drive Temperature:     ${o.temperatureC ?? 34} C`,
    `Drive Trip Temperature:        ${o.tripC ?? 85} C`,
    '',
    'Accumulated power on time, hours:minutes 31877:42',
    'Manufactured in week 27 of year 2019',
    `Specified cycle count over device lifetime:  ${o.startStopSpec ?? 50000}`,
    `Accumulated start-stop cycles:  ${o.startStop ?? 61}`,
    `Specified load-unload count over device lifetime:  ${o.loadUnloadSpec ?? 600000}`,
    `Accumulated load-unload cycles:  ${o.loadUnload ?? 2214}`,
    `Elements in grown defect list: ${o.grownDefects ?? 0}`,
    '',
    'Vendor (Seagate Cache) information',
    '  Blocks sent to initiator = 94166324822',
    '',
    ...counterLog(o.uncorrected ?? {}),
    '',
    `Non-medium error count:        ${o.nonMedium ?? 2}`,
    '',
    'SMART Self-test log',
    'Num  Test              Status                 segment  LifeTime  LBA_first_err [SK ASC ASQ]',
    '     Description                              number   (hours)',
    '# 1  Background short  Completed                   -   31860                 - [-   -    -]',
    '',
    'Long (extended) Self-test duration: 64800 seconds [1080.0 minutes]',
    '',
  ].join('\n');
}

/** A SAS SSD (a 3.84 TB read-intensive one) with its percentage used endurance indicator. */
export function sasSsd(o: { enduranceUsed?: number; grownDefects?: number; uncorrected?: ScsiCounters } = {}): string {
  return [
    ...HEADER,
    '=== START OF INFORMATION SECTION ===',
    'Vendor:               SAMSUNG',
    'Product:              MZILT3T8HBLS/007',
    'Revision:             GXA0',
    'Compliance:           SPC-5',
    'User Capacity:        3,840,755,982,336 bytes [3.84 TB]',
    'Logical block size:   512 bytes',
    'Physical block size:  4096 bytes',
    'LU is resource provisioned, LBPRZ=1',
    'Rotation Rate:        Solid State Device',
    'Form Factor:          2.5 inches',
    'Logical Unit id:      0x5002538b11a2c3d0',
    'Serial number:        S5G0NE0R700123',
    'Device type:          disk',
    'Transport protocol:   SAS (SPL-4)',
    'SMART support is:     Available - device has SMART capability.',
    'SMART support is:     Enabled',
    'Temperature Warning:  Enabled',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    'SMART Health Status: OK',
    '',
    `Percentage used endurance indicator: ${o.enduranceUsed ?? 4}%`,
    'Current Drive Temperature:     38 C',
    'Drive Trip Temperature:        70 C',
    '',
    'Accumulated power on time, hours:minutes 20411:09',
    'Manufactured in week 44 of year 2020',
    'Accumulated start-stop cycles:  87',
    'Specified load-unload count over device lifetime:  0',
    'Accumulated load-unload cycles:  0',
    `Elements in grown defect list: ${o.grownDefects ?? 0}`,
    '',
    ...counterLog({ verify: null, ...o.uncorrected }),
    '',
    'Non-medium error count:        0',
    '',
  ].join('\n');
}
