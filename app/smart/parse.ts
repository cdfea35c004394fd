/**
 * SMART text as a drive's `GET /resources/drives/smart` returns it (smartctl-like): the ATA
 * attribute table for HDD/SSD, the NVMe SMART/Health log for NVMe. Parsing is line by line and
 * forgiving: unknown lines are skipped, so a newer smartctl or a vendor banner never breaks it.
 */

/** Risk of one finding or of a whole drive, in increasing severity. */
export type SmartRisk = 'ok' | 'warning' | 'critical';

/** The ATA attributes that predict failure best: any non-zero raw count deserves attention. */
export const WATCHED_ATA_IDS: readonly number[] = [5, 187, 188, 197, 198];

/**
 * Raw counts at which a watched attribute is critical rather than a warning. Reallocations in the
 * hundreds mean the spare area is being consumed; a few pending or uncorrectable sectors already
 * mean data loss on read. Command timeouts are often cabling, so they need many before alarm.
 */
export const ATA_CRITICAL_RAW: Readonly<Record<number, number>> = { 5: 100, 187: 10, 188: 100, 197: 10, 198: 10 };

/** NVMe "Percentage Used" (of rated endurance) at which the drive deserves a warning. */
export const NVME_WEAR_WARNING_PERCENT = 90;

export interface AtaAttribute {
  id: number;
  name: string;
  /** `0x0033` in the full layout, `PO--CK` in smartctl's brief layout. */
  flag: string;
  value: number;
  worst: number;
  /** Undefined when printed as `---`. */
  thresh: number | undefined;
  /** `Pre-fail` or `Old_age`. */
  type: string;
  /** `Always` or `Offline`; empty in the brief layout. */
  updated: string;
  /** `-`, `FAILING_NOW` or `In_the_past`. */
  whenFailed: string;
  /** Raw value exactly as printed. */
  raw: string;
  /** The count in the raw value: its first number (`36 (Min/Max 19/46)` → 36, `1234h+05m` → 1234). */
  rawNumber: number | undefined;
  watched: boolean;
  risk: SmartRisk;
  /** Why the risk is not ok. */
  reason?: string;
}

/** One `Name: value` line of the NVMe SMART/Health log. */
export interface NvmeField {
  label: string;
  text: string;
  value: number | undefined;
  risk: SmartRisk;
  reason?: string;
}

export interface NvmeHealth {
  criticalWarning?: number;
  temperatureC?: number;
  availableSpare?: number;
  availableSpareThreshold?: number;
  percentageUsed?: number;
  mediaErrors?: number;
  errorLogEntries?: number;
  powerOnHours?: number;
  powerCycles?: number;
  unsafeShutdowns?: number;
  /** Every field of the log in printed order, with its own risk. */
  fields: NvmeField[];
}

export interface SmartFinding {
  risk: Exclude<SmartRisk, 'ok'>;
  /** What the finding is about: `5 Reallocated_Sector_Ct`, `Critical Warning`, `overall health`. */
  subject: string;
  message: string;
}

export interface SmartReport {
  kind: 'ata' | 'nvme' | 'unknown';
  model?: string;
  serial?: string;
  firmware?: string;
  /** The self-assessment as printed (`PASSED`, `FAILED!`), when present. */
  overallHealth?: string;
  attributes: AtaAttribute[];
  nvme?: NvmeHealth;
  /** The worst risk of any finding. */
  risk: SmartRisk;
  findings: SmartFinding[];
}

const RANK: Record<SmartRisk, number> = { ok: 0, warning: 1, critical: 2 };

/** The more severe of two risks. */
export function worstRisk(a: SmartRisk, b: SmartRisk): SmartRisk {
  return RANK[a] >= RANK[b] ? a : b;
}

// ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW_VALUE
const ATA_FULL = /^\s*(\d{1,3})\s+(\S+)\s+(0x[0-9a-fA-F]{4})\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3}|-{3})\s+(\S+)\s+(\S+)\s+(\S+)\s+(.*?)\s*$/;
// smartctl -f brief: ID# ATTRIBUTE_NAME FLAGS VALUE WORST THRESH FAIL RAW_VALUE
const ATA_BRIEF = /^\s*(\d{1,3})\s+(\S+)\s+([PSROCK+-]{6,7})\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3}|-{3})\s+(\S+)\s+(.*?)\s*$/;
const KEY_VALUE = /^\s*([A-Za-z][A-Za-z0-9 ./()_-]*?)\s*:\s*(.*?)\s*$/;

/** Normalised key of a `Name: value` line, so `Media and Data Integrity Errors` and `media_errors` meet. */
function keyOf(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '');
}

type NvmeNumber = Exclude<keyof NvmeHealth, 'fields'>;

/** smartctl labels and nvme-cli `smart-log` labels, normalised by `keyOf`. */
const NVME_KEYS: Readonly<Record<string, NvmeNumber>> = {
  criticalwarning: 'criticalWarning',
  temperature: 'temperatureC',
  compositetemperature: 'temperatureC',
  availablespare: 'availableSpare',
  availablesparethreshold: 'availableSpareThreshold',
  sparethreshold: 'availableSpareThreshold',
  percentageused: 'percentageUsed',
  mediaanddataintegrityerrors: 'mediaErrors',
  mediaerrors: 'mediaErrors',
  errorinformationlogentries: 'errorLogEntries',
  numerrlogentries: 'errorLogEntries',
  poweronhours: 'powerOnHours',
  powercycles: 'powerCycles',
  unsafeshutdowns: 'unsafeShutdowns',
};

/** The first number in a printed value: `1,234` → 1234, `0x04` → 4, `12h+30m` → 12; undefined when none. */
export function firstNumber(text: string): number | undefined {
  const hex = /^\s*0x([0-9a-fA-F]+)\b/.exec(text);
  if (hex) return Number.parseInt(hex[1] as string, 16);
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

function parseAtaRow(line: string): AtaAttribute | undefined {
  const full = ATA_FULL.exec(line);
  if (full) {
    const [, id, name, flag, value, worst, thresh, type, updated, whenFailed, raw] = full as unknown as string[];
    return attribute(Number(id), name as string, flag as string, Number(value), Number(worst), thresh as string, type as string, updated as string, whenFailed as string, raw as string);
  }
  const brief = ATA_BRIEF.exec(line);
  if (brief) {
    const [, id, name, flags, value, worst, thresh, fail, raw] = brief as unknown as string[];
    // In the brief layout the P flag marks a pre-failure attribute.
    const type = (flags as string).startsWith('P') ? 'Pre-fail' : 'Old_age';
    return attribute(Number(id), name as string, flags as string, Number(value), Number(worst), thresh as string, type, '', fail as string, raw as string);
  }
  return undefined;
}

function attribute(id: number, name: string, flag: string, value: number, worst: number, thresh: string, type: string, updated: string, whenFailed: string, raw: string): AtaAttribute {
  return {
    id,
    name,
    flag,
    value,
    worst,
    thresh: /^\d+$/.test(thresh) ? Number(thresh) : undefined,
    type,
    updated,
    whenFailed,
    raw,
    rawNumber: firstNumber(raw),
    watched: WATCHED_ATA_IDS.includes(id),
    risk: 'ok',
  };
}

/** Sets an attribute's risk from its own row and, for watched counters, from the earlier reading. */
function classifyAta(a: AtaAttribute, previousRaw: number | undefined): void {
  const rate = (risk: SmartRisk, reason: string): void => {
    if (RANK[risk] > RANK[a.risk]) {
      a.risk = risk;
      a.reason = reason;
    }
  };
  if (a.whenFailed === 'FAILING_NOW' || (a.thresh !== undefined && a.thresh > 0 && a.value <= a.thresh)) {
    rate('critical', `normalised value ${a.value} is at or below the threshold ${a.thresh ?? ''}`.trim());
  } else if (a.whenFailed === 'In_the_past') {
    rate('warning', 'failed in the past');
  }
  if (!a.watched || a.rawNumber === undefined || a.rawNumber <= 0) return;
  const limit = ATA_CRITICAL_RAW[a.id] ?? Number.POSITIVE_INFINITY;
  if (previousRaw !== undefined && a.rawNumber > previousRaw) rate('critical', `raw count grew from ${previousRaw} to ${a.rawNumber}`);
  else if (a.rawNumber >= limit) rate('critical', `raw count ${a.rawNumber} is at or above ${limit}`);
  else rate('warning', `raw count ${a.rawNumber} is above 0`);
}

/** Sets the risk of each NVMe field from the log's rules. */
function classifyNvme(h: NvmeHealth): void {
  for (const f of h.fields) {
    const k = NVME_KEYS[keyOf(f.label)];
    if (f.value === undefined) continue;
    if (k === 'criticalWarning' && f.value !== 0) {
      f.risk = 'critical';
      f.reason = `critical warning bits 0x${f.value.toString(16).padStart(2, '0')} are set`;
    } else if (k === 'availableSpare' && h.availableSpareThreshold !== undefined && f.value < h.availableSpareThreshold) {
      f.risk = 'critical';
      f.reason = `available spare ${f.value}% is below the threshold ${h.availableSpareThreshold}%`;
    } else if (k === 'percentageUsed' && f.value >= NVME_WEAR_WARNING_PERCENT) {
      f.risk = 'warning';
      f.reason = `${f.value}% of the rated endurance is used`;
    } else if (k === 'mediaErrors' && f.value > 0) {
      f.risk = 'warning';
      f.reason = `${f.value} media and data integrity errors`;
    }
  }
}

/**
 * Parses SMART text and classifies its risk.
 *
 * ATA: watched attributes (5, 187, 188, 197, 198) with a raw count above 0 are a warning; a count at
 * or above `ATA_CRITICAL_RAW`, or one that grew since `previous`, is critical; any attribute at or
 * below its threshold (or `FAILING_NOW`) is critical. NVMe: a critical warning other than 0x00 or an
 * available spare below its threshold is critical; percentage used ≥ 90 or media errors > 0 is a
 * warning. A FAILED self-assessment is critical for both.
 *
 * @param text the SMART output; never throws, whatever it holds.
 * @param previous an earlier report of the same drive, to tell a growing counter from a stable one.
 */
export function parseSmart(text: string, previous?: SmartReport): SmartReport {
  const attributes: AtaAttribute[] = [];
  const nvmeFields: NvmeField[] = [];
  const info: { model?: string; serial?: string; firmware?: string; overallHealth?: string } = {};
  let inAtaTable = false;
  let inNvmeLog = false;

  for (const line of text.split(/\r?\n/)) {
    if (/^\s*ID#\s+ATTRIBUTE_NAME/.test(line)) {
      inAtaTable = true;
      continue;
    }
    if (inAtaTable) {
      const row = parseAtaRow(line);
      if (row) {
        attributes.push(row);
        continue;
      }
      // The brief layout prints a flag legend under the table; any other line ends the table.
      if (!/^\s*(\|{2,}|[_|]+\s)/.test(line)) inAtaTable = false;
    }
    if (/SMART\/Health Information|Smart Log for NVME/i.test(line)) {
      inNvmeLog = true;
      continue;
    }
    // The log ends at the first blank line; error and self-test logs may follow.
    if (line.trim() === '') inNvmeLog = false;
    const overall = /self-assessment test result:\s*(.+?)\s*$/i.exec(line) ?? /^SMART Health Status:\s*(.+?)\s*$/i.exec(line);
    if (overall) {
      info.overallHealth = overall[1] as string;
      continue;
    }
    const kv = KEY_VALUE.exec(line);
    if (!kv) continue;
    const label = kv[1] as string;
    const value = kv[2] as string;
    const key = keyOf(label);
    if (key === 'devicemodel' || key === 'modelnumber' || key === 'product') info.model ??= value;
    else if (key === 'serialnumber') info.serial ??= value;
    else if (key === 'firmwareversion' || key === 'revision') info.firmware ??= value;
    // Inside the log every line is kept; outside it only fields known by name (nvme-cli's smart-log).
    else if (inNvmeLog || NVME_KEYS[key] !== undefined) nvmeFields.push({ label, text: value, value: firstNumber(value), risk: 'ok' });
  }

  const previousRaw = new Map<number, number>();
  for (const a of previous?.attributes ?? []) if (a.rawNumber !== undefined) previousRaw.set(a.id, a.rawNumber);
  for (const a of attributes) classifyAta(a, previousRaw.get(a.id));

  let nvme: NvmeHealth | undefined;
  const hasNvmeKeys = nvmeFields.some((f) => NVME_KEYS[keyOf(f.label)] !== undefined);
  if (attributes.length === 0 && hasNvmeKeys) {
    nvme = { fields: nvmeFields };
    for (const f of nvmeFields) {
      const k = NVME_KEYS[keyOf(f.label)];
      // The first occurrence wins: smartctl prints Temperature once, later sensors separately.
      if (k !== undefined && f.value !== undefined && nvme[k] === undefined) nvme[k] = f.value;
    }
    classifyNvme(nvme);
  }

  const findings: SmartFinding[] = [];
  if (info.overallHealth !== undefined && /FAIL/i.test(info.overallHealth)) {
    findings.push({ risk: 'critical', subject: 'overall health', message: `self-assessment ${info.overallHealth}` });
  }
  for (const a of attributes) if (a.risk !== 'ok') findings.push({ risk: a.risk, subject: `${a.id} ${a.name}`, message: a.reason ?? '' });
  for (const f of nvme?.fields ?? []) if (f.risk !== 'ok') findings.push({ risk: f.risk, subject: f.label, message: f.reason ?? '' });

  return {
    kind: attributes.length > 0 ? 'ata' : nvme ? 'nvme' : 'unknown',
    ...info,
    attributes,
    ...(nvme ? { nvme } : {}),
    risk: findings.reduce<SmartRisk>((r, f) => worstRisk(r, f.risk), 'ok'),
    findings,
  };
}
