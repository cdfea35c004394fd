/**
 * smartctl's `--json` output, read as the text smartctl prints for the same device: the ATA
 * attribute table (`-A` layout), the NVMe SMART/Health log, or the SCSI health status, temperatures,
 * grown defect list and error counter log. The text parser then rates it by the same rules, so a
 * drive reads alike whichever way its system sends it. Sections this does not know are left out;
 * a document with none of them becomes text in no layout, which the parser rates **unknown**.
 */

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** Whether a parsed answer is smartctl's JSON output (its `smartctl` or `json_format_version` member, or a SMART section). */
export function isSmartctlJson(v: unknown): v is Json {
  if (!isObj(v)) return false;
  return ['smartctl', 'json_format_version', 'ata_smart_attributes', 'nvme_smart_health_information_log', 'scsi_grown_defect_list', 'smart_status'].some((k) => k in v);
}

/** WHEN_FAILED as the full table prints it: smartctl's JSON says `""`, `"now"` or `"past"`; other text stays (and is not understood). */
function whenFailed(v: unknown): string {
  const s = str(v)?.trim() ?? '';
  if (s === '' || s === '-') return '-';
  if (s.toLowerCase() === 'now') return 'FAILING_NOW';
  if (s.toLowerCase() === 'past') return 'In_the_past';
  return s.replace(/\s+/g, '_');
}

function ataLines(table: unknown[]): string[] {
  const lines = ['ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE'];
  for (const a of table) {
    if (!isObj(a)) continue;
    const flags = isObj(a.flags) ? a.flags : {};
    const id = num(a.id);
    const value = num(a.value);
    if (id === undefined || value === undefined) continue;
    const raw = isObj(a.raw) ? (str(a.raw.string) ?? str(a.raw.value) ?? '') : (str(a.raw) ?? '');
    const flag = `0x${(num(flags.value) ?? 0).toString(16).padStart(4, '0')}`;
    const type = flags.prefailure === true ? 'Pre-fail' : 'Old_age';
    const updated = flags.updated_online === false ? 'Offline' : 'Always';
    const thresh = num(a.thresh);
    lines.push(`${id} ${(str(a.name) ?? 'Unknown_Attribute').replace(/\s+/g, '_')} ${flag} ${value} ${num(a.worst) ?? value} ${thresh ?? '---'} ${type} ${updated} ${whenFailed(a.when_failed)} ${raw}`);
  }
  return lines;
}

const NVME_LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['critical_warning', 'Critical Warning', 'hex'],
  ['temperature', 'Temperature', ' Celsius'],
  ['available_spare', 'Available Spare', '%'],
  ['available_spare_threshold', 'Available Spare Threshold', '%'],
  ['percentage_used', 'Percentage Used', '%'],
  ['power_cycles', 'Power Cycles', ''],
  ['power_on_hours', 'Power On Hours', ''],
  ['unsafe_shutdowns', 'Unsafe Shutdowns', ''],
  ['media_errors', 'Media and Data Integrity Errors', ''],
  ['num_err_log_entries', 'Error Information Log Entries', ''],
];

function nvmeLines(log: Json): string[] {
  const lines = ['SMART/Health Information (NVMe Log 0x02)'];
  for (const [key, label, unit] of NVME_LABELS) {
    if (!(key in log)) continue;
    const v = num(log[key]);
    // A value that is no number is printed as it came: the parser rates it unknown.
    const text = v === undefined ? JSON.stringify(log[key]) : unit === 'hex' ? `0x${v.toString(16).padStart(2, '0')}` : `${v}${unit}`;
    lines.push(`${label}: ${text}`);
  }
  lines.push('');
  return lines;
}

function scsiLines(doc: Json): string[] {
  const lines: string[] = [];
  const status = isObj(doc.smart_status) ? doc.smart_status : undefined;
  if (status) {
    const scsi = isObj(status.scsi) ? status.scsi : {};
    const text = str(scsi.ie_string) ?? (status.passed === true ? 'OK' : status.passed === false ? 'FAILURE' : (JSON.stringify(status.passed) ?? ''));
    lines.push(`SMART Health Status: ${text}`);
  }
  const temp = isObj(doc.temperature) ? doc.temperature : undefined;
  if (num(temp?.current) !== undefined) lines.push(`Current Drive Temperature:     ${num(temp?.current)} C`);
  if (num(temp?.drive_trip) !== undefined) lines.push(`Drive Trip Temperature:        ${num(temp?.drive_trip)} C`);
  const grown = isObj(doc.scsi_grown_defect_list) ? num(doc.scsi_grown_defect_list.count) : num(doc.scsi_grown_defect_list);
  if (doc.scsi_grown_defect_list !== undefined) lines.push(`Elements in grown defect list: ${grown ?? JSON.stringify(doc.scsi_grown_defect_list)}`);
  const log = isObj(doc.scsi_error_counter_log) ? doc.scsi_error_counter_log : undefined;
  if (log) {
    lines.push(
      'Error counter log:',
      '           Errors Corrected by           Total   Correction     Gigabytes    Total',
      '               ECC          rereads/    errors   algorithm      processed    uncorrected',
      '           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors',
    );
    for (const op of ['read', 'write', 'verify']) {
      const c = isObj(log[op]) ? (log[op] as Json) : undefined;
      if (!c) continue;
      const n = (k: string): string => String(num(c[k]) ?? 0);
      const gb = str(c.gigabytes_processed) ?? '0.000';
      lines.push(`${op}: ${n('errors_corrected_by_eccfast')} ${n('errors_corrected_by_eccdelayed')} ${n('errors_corrected_by_rereads_rewrites')} ${n('total_errors_corrected')} ${n('correction_algorithm_invocations')} ${gb} ${str(c.total_uncorrected_errors) ?? '?'}`);
    }
    lines.push('');
  }
  return lines;
}

/** The text smartctl would print for this JSON document (see the module comment). */
export function smartctlJsonText(doc: Json): string {
  const device = isObj(doc.device) ? doc.device : {};
  const protocol = (str(device.protocol) ?? '').toUpperCase();
  const lines: string[] = [];
  const model = str(doc.model_name) ?? str(doc.scsi_model_name) ?? str(doc.product);
  if (model !== undefined) lines.push(`${protocol === 'NVME' ? 'Model Number' : 'Device Model'}: ${model}`);
  if (str(doc.serial_number) !== undefined) lines.push(`Serial Number: ${str(doc.serial_number)}`);
  if (str(doc.firmware_version) !== undefined) lines.push(`Firmware Version: ${str(doc.firmware_version)}`);
  const status = isObj(doc.smart_status) ? doc.smart_status : undefined;
  const ata = isObj(doc.ata_smart_attributes) && Array.isArray(doc.ata_smart_attributes.table) ? doc.ata_smart_attributes.table : undefined;
  const nvme = isObj(doc.nvme_smart_health_information_log) ? doc.nvme_smart_health_information_log : undefined;
  const scsi = protocol === 'SCSI' || 'scsi_grown_defect_list' in doc || 'scsi_error_counter_log' in doc;
  if (scsi && !ata && !nvme) return [...lines, ...scsiLines(doc)].join('\n');
  if (status && typeof status.passed === 'boolean') lines.push(`SMART overall-health self-assessment test result: ${status.passed ? 'PASSED' : 'FAILED!'}`);
  if (ata) lines.push('', ...ataLines(ata), '');
  if (nvme) lines.push('', ...nvmeLines(nvme));
  return lines.join('\n');
}
