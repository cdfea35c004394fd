/**
 * SMART text as a drive's `GET /resources/drives/smart` returns it (the interface says only
 * "string"; we read smartctl's layouts): the ATA attribute table (SATA HDD/SSD), the NVMe
 * SMART/Health log, and the SCSI log pages smartctl prints for SAS drives (health status, grown
 * defect list, error counter log, temperature, start-stop and load cycles, SSD endurance).
 * smartctl's `--json` output is read as the text it stands for (`json.ts`). Parsing is line by line and forgiving: unknown lines are skipped, so a newer smartctl or a vendor
 * banner never breaks it. What it cannot read is never "ok": text in none of these layouts, a known
 * line whose value is not a number, or SCSI output without the sections its risk is read from is
 * "unknown".
 */

import { isSmartctlJson, smartctlJsonText } from './json.js';

/**
 * Risk of one finding or of a whole drive, in increasing severity. `unknown`: the text (or a line
 * of it) could not be read, so nothing can be said; it ranks above ok and below any known risk.
 */
export type SmartRisk = 'ok' | 'unknown' | 'warning' | 'critical';

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

/**
 * SCSI (SAS) limits. The grown defect list is the SAS counterpart of ATA's reallocated sectors and
 * the uncorrected errors of ATA's uncorrectable counts, so they share ATA's limits: any is a
 * warning, this many (or any growth since the last reading) critical.
 */
export const SCSI_CRITICAL_COUNT = { grownDefects: 100, pendingDefects: 10, uncorrected: 10 } as const;
/** Degrees below the drive's trip temperature at which a SCSI drive is already a warning. */
export const SCSI_TEMPERATURE_MARGIN_C = 5;
/** Share of the specified start-stop or load-unload cycles at which a drive deserves a warning. */
export const SCSI_CYCLES_WARNING_SHARE = 0.9;

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

/** One `Name: value` line of the NVMe SMART/Health log or of smartctl's SCSI pages. */
export interface SmartField {
  label: string;
  text: string;
  value: number | undefined;
  risk: SmartRisk;
  reason?: string;
}

export type NvmeField = SmartField;

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

/**
 * One row of smartctl's SCSI "Error counter log" (read, write, verify): errors corrected by ECC
 * (fast, delayed), by rereads/rewrites, in total, correction algorithm invocations, gigabytes
 * processed and total uncorrected errors.
 */
export interface ScsiErrorCounter {
  operation: string;
  correctedFast: number;
  correctedDelayed: number;
  rereadsRewrites: number;
  totalCorrected: number;
  algorithmInvocations: number;
  gigabytesProcessed: number;
  uncorrected: number;
  risk: SmartRisk;
  reason?: string;
}

/** What smartctl prints for a SCSI (SAS) device, as numbers where it printed numbers. */
export interface ScsiHealth {
  temperatureC?: number;
  tripTemperatureC?: number;
  grownDefects?: number;
  pendingDefects?: number;
  nonMediumErrors?: number;
  startStopCycles?: number;
  startStopLimit?: number;
  loadUnloadCycles?: number;
  loadUnloadLimit?: number;
  /** SAS SSD: percentage of the rated endurance used. */
  enduranceUsedPercent?: number;
  powerOnHours?: number;
  /** Every known line in printed order, with its own risk. */
  fields: SmartField[];
  errorCounters: ScsiErrorCounter[];
}

export interface SmartFinding {
  risk: Exclude<SmartRisk, 'ok'>;
  /** What the finding is about: `5 Reallocated_Sector_Ct`, `Critical Warning`, `overall health`. */
  subject: string;
  message: string;
}

export interface SmartReport {
  /** The layout recognised; `unknown` when none was, and then `risk` is `unknown` too. */
  kind: 'ata' | 'nvme' | 'scsi' | 'unknown';
  model?: string;
  serial?: string;
  firmware?: string;
  /** The self-assessment as printed (`PASSED`, `FAILED!`; SCSI: `OK` or the failure it predicts), when present. */
  overallHealth?: string;
  attributes: AtaAttribute[];
  nvme?: NvmeHealth;
  scsi?: ScsiHealth;
  /** The worst risk of any finding. */
  risk: SmartRisk;
  findings: SmartFinding[];
}

const RANK: Record<SmartRisk, number> = { ok: 0, unknown: 1, warning: 2, critical: 3 };

/** The more severe of two risks. */
export function worstRisk(a: SmartRisk, b: SmartRisk): SmartRisk {
  return RANK[a] >= RANK[b] ? a : b;
}

// ATA attribute rows (ataRowFields): ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED
// WHEN_FAILED RAW_VALUE; smartctl -f brief: ID# ATTRIBUTE_NAME FLAGS VALUE WORST THRESH FAIL RAW_VALUE.
const ATA_HEADER = /^\s*ID#\s+ATTRIBUTE_NAME/;
// Found in the whole text rather than line by line: neither can match across a line end.
const NVME_LOG = /SMART\/Health Information|Smart Log for NVME/gi;
const OVERALL = /self-assessment test result:\s*(.+?)\s*$/i;
const OVERALL_LABEL = /self-assessment test result:/gi;

/** Index of the next match of a global pattern in `text` at or after `from`; `Infinity` when none. */
function nextMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const m = pattern.exec(text);
  return m ? m.index : Infinity;
}

/** Whether a UTF-16 code unit is one `\s` matches (and `String.prototype.trim` strips). */
export function isSpace(c: number): boolean {
  // Below U+00A0 (no-break space) only ASCII's white space.
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The characters of a `Name: value` label (`[A-Za-z0-9 ./()_-]`), by what its key does with them:
 * 0 not a label character, 1 kept (lower-case letter, digit), 2 lower-cased, 3 space, 4 dropped.
 */
const LABEL_CHAR = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') LABEL_CHAR[c.charCodeAt(0)] = 1;
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') LABEL_CHAR[c.charCodeAt(0)] = 2;
LABEL_CHAR[32] = 3;
for (const c of './()_-') LABEL_CHAR[c.charCodeAt(0)] = 4;

/**
 * Normalised key of a `Name: value` line, so `Media and Data Integrity Errors` and `media_errors`
 * meet. (A line's key is made as its label is found: {@link splitKeyValue}.)
 */
function keyOf(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * One line of the text as the parser reads it, worked out once and shared by every reader of the
 * line: where its text starts, its first character (which decides which patterns can match at all),
 * and its `Name: value` split, made when first asked. It is read by offsets into the whole text (a
 * flat string, quick to read character by character); the line is cut out as a string of its own
 * only for a pattern that may match it. One object serves every line of a text.
 */
interface Line {
  /** The whole text, and the line's bounds in it (its line end excluded). */
  src: string;
  from: number;
  to: number;
  /** The line as a string, once cut out ({@link lineText}). */
  text: string | undefined;
  /** Offset of the first character that is not white space; `to` when the line is blank. */
  start: number;
  /** Code of that character; -1 when the line is blank. */
  first: number;
  /** The `Name: value` split: not made yet, none, or made. */
  split: 'todo' | 'none' | 'done';
  /** The label's end (white space before the colon excluded) and the value's bounds (white space around it excluded). */
  labelEnd: number;
  valueStart: number;
  valueEnd: number;
  /** The label, and its normalised key ({@link keyOf}). */
  label: string;
  key: string;
  /** The text holds no CR, U+2028 or U+2029 (the line terminators a line can hold): no value can hold one. */
  plainEnds: boolean;
}

function newLine(src: string): Line {
  return { src, from: 0, to: 0, text: undefined, start: 0, first: -1, split: 'todo', labelEnd: 0, valueStart: 0, valueEnd: 0, label: '', key: '', plainEnds: !src.includes('\r') && !src.includes('\u2028') && !src.includes('\u2029') };
}

function readLine(l: Line, from: number, to: number): void {
  const t = l.src;
  let i = from;
  while (i < to && isSpace(t.charCodeAt(i))) i++;
  l.from = from;
  l.to = to;
  l.text = undefined;
  l.start = i;
  l.first = i < to ? t.charCodeAt(i) : -1;
  l.split = 'todo';
}

/** The line as a string (cut out once). */
function lineText(l: Line): string {
  l.text ??= l.src.slice(l.from, l.to);
  return l.text;
}

/**
 * Splits a `Name: value` line as `/^\s*([A-Za-z][A-Za-z0-9 ./()_-]*?)\s*:\s*(.*?)\s*$/` does (the
 * pattern it replaces, checked against it in the tests): a letter, label characters, white space,
 * the first colon, then the value without the white space around it, which holds no line terminator.
 * Returns whether the line is one.
 */
function splitKeyValue(l: Line): boolean {
  if (l.split !== 'todo') return l.split === 'done';
  l.split = 'none';
  const letter = l.first | 0x20;
  if (letter < 97 || letter > 122) return false;
  const t = l.src;
  const n = l.to;
  // Which kinds of label character occur (bit 1 << kind), so that the key is made by native calls alone.
  let kinds = 1 << (LABEL_CHAR[l.first] as number);
  let i = l.start + 1;
  for (; i < n; i++) {
    const c = t.charCodeAt(i);
    const kind = c < 128 ? (LABEL_CHAR[c] as number) : 0;
    if (kind === 0) break;
    kinds |= 1 << kind;
  }
  while (i < n && isSpace(t.charCodeAt(i))) i++;
  if (i >= n || t.charCodeAt(i) !== 58) return false;
  let labelEnd = i;
  while (isSpace(t.charCodeAt(labelEnd - 1))) labelEnd--;
  let valueStart = i + 1;
  while (valueStart < n && isSpace(t.charCodeAt(valueStart))) valueStart++;
  let valueEnd = n;
  while (valueEnd > valueStart && isSpace(t.charCodeAt(valueEnd - 1))) valueEnd--;
  if (!l.plainEnds) {
    for (let j = valueStart; j < valueEnd; j++) {
      const c = t.charCodeAt(j);
      if (c === 13 || c === 0x2028 || c === 0x2029) return false;
    }
  }
  l.split = 'done';
  l.labelEnd = labelEnd;
  l.valueStart = valueStart;
  l.valueEnd = valueEnd;
  const label = t.slice(l.start, labelEnd);
  let key = KEYS.get(label);
  if (key === undefined) {
    key = label;
    if (kinds & (1 << 2)) key = key.toLowerCase();
    if (kinds & (1 << 3)) key = key.replaceAll(' ', '');
    if (kinds & (1 << 4)) key = key.replace(/[^a-z0-9]/g, '');
    if (label.length <= KEYS_LABEL_MAX) {
      if (KEYS.size >= KEYS_MAX) KEYS.clear();
      KEYS.set(detached(label), detached(key));
    }
  }
  l.label = label;
  l.key = key;
  return true;
}

/**
 * The keys of the labels met lately (smartctl prints the same few dozen on every drive): a lookup
 * costs a third of making the key. Bounded, and holding copies, never a piece of a text.
 */
const KEYS = new Map<string, string>();
const KEYS_MAX = 1024;
const KEYS_LABEL_MAX = 64;

/** A copy of a string that does not keep alive the text it was cut from (V8 cuts long strings as views into it). */
function detached(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

const labelOf = (l: Line): string => l.label;
const valueOf = (l: Line): string => l.src.slice(l.valueStart, l.valueEnd);

/**
 * The label and value of a `Name: value` line as the parser reads them (one line: no LF in it), or
 * undefined when the line is not one; with its normalised key (letters in lower case and digits).
 */
export function nameValueOf(line: string): { label: string; value: string; key: string } | undefined {
  const l = newLine(line);
  readLine(l, 0, line.length);
  return splitKeyValue(l) ? { label: labelOf(l), value: valueOf(l), key: l.key } : undefined;
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

const HEX_NUMBER = /^\s*0x([0-9a-fA-F]+)\b/;
const DECIMAL_NUMBER = /-?\d[\d,]*(?:\.\d+)?/;

/** The first number in a printed value: `1,234` → 1234, `0x04` → 4, `12h+30m` → 12; undefined when none. */
export function firstNumber(text: string): number | undefined {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) === 48 && text.charCodeAt(i + 1) === 120) {
    const hex = HEX_NUMBER.exec(text);
    if (hex) return Number.parseInt(hex[1] as string, 16);
  }
  const m = DECIMAL_NUMBER.exec(text);
  if (!m) return undefined;
  const n = Number(m[0].replaceAll(',', ''));
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The fields of an ATA attribute row, as the patterns it replaces matched them (checked against them in
 * the tests): the white-space-separated words of the line, the first nine (`full`, FLAG as `0x`
 * and four hex digits) or seven (`brief`, FLAGS as six or seven of `PSROCK+-`) checked, then the
 * rest of the line without the white space around it, which holds no line terminator. Read by
 * offsets: no match array and no string per word that is not kept.
 */
export function ataRowFields(line: string): { layout: 'full' | 'brief'; fields: string[] } | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = 0;
  const n = line.length;
  while (starts.length < 9) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n) break;
    starts.push(i);
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    ends.push(i);
  }
  const word = (k: number): string => line.slice(starts[k], ends[k]);
  const common = starts.length >= 7 && isSmallNumber(line, starts[0] as number, ends[0] as number) && isSmallNumber(line, starts[3] as number, ends[3] as number) && isSmallNumber(line, starts[4] as number, ends[4] as number) && isThreshold(line, starts[5] as number, ends[5] as number);
  if (!common) return undefined;
  if (starts.length === 9 && isHexFlag(line, starts[2] as number, ends[2] as number)) {
    const rest = restAfter(line, ends[8] as number);
    if (rest !== undefined) return { layout: 'full', fields: [word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7), word(8), rest] };
  }
  if (isBriefFlags(line, starts[2] as number, ends[2] as number)) {
    const rest = restAfter(line, ends[6] as number);
    if (rest !== undefined) return { layout: 'brief', fields: [word(0), word(1), word(2), word(3), word(4), word(5), word(6), rest] };
  }
  return undefined;
}

/** `\d{1,3}` over the whole word. */
function isSmallNumber(line: string, from: number, to: number): boolean {
  if (to - from < 1 || to - from > 3) return false;
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** `\d{1,3}|-{3}` over the whole word. */
function isThreshold(line: string, from: number, to: number): boolean {
  return isSmallNumber(line, from, to) || (to - from === 3 && line.startsWith('---', from));
}

/** `0x[0-9a-fA-F]{4}` over the whole word. */
function isHexFlag(line: string, from: number, to: number): boolean {
  if (to - from !== 6 || line.charCodeAt(from) !== 48 || line.charCodeAt(from + 1) !== 120) return false;
  for (let i = from + 2; i < to; i++) {
    const c = line.charCodeAt(i) | 0x20;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** `[PSROCK+-]{6,7}` over the whole word. */
function isBriefFlags(line: string, from: number, to: number): boolean {
  if (to - from < 6 || to - from > 7) return false;
  for (let i = from; i < to; i++) if (!'PSROCK+-'.includes(line.charAt(i))) return false;
  return true;
}

/**
 * `\s+(.*?)\s*$` from the end of a word: the rest of the line without the white space around it,
 * undefined when the line ends with the word or the rest holds a line terminator.
 */
function restAfter(line: string, from: number): string | undefined {
  const n = line.length;
  if (from >= n) return undefined;
  let start = from;
  while (start < n && isSpace(line.charCodeAt(start))) start++;
  let end = n;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  for (let i = start; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return undefined;
  }
  return line.slice(start, end);
}

function parseAtaRow(line: string): AtaAttribute | undefined {
  const row = ataRowFields(line);
  if (!row) return undefined;
  const f = row.fields as [string, string, string, string, string, string, string, string, string, string];
  if (row.layout === 'full') return attribute(Number(f[0]), f[1], f[2], Number(f[3]), Number(f[4]), f[5], f[6], f[7], f[8], f[9]);
  // In the brief layout the P flag marks a pre-failure attribute.
  const type = f[2].startsWith('P') ? 'Pre-fail' : 'Old_age';
  return attribute(Number(f[0]), f[1], f[2], Number(f[3]), Number(f[4]), f[5], type, '', f[6], f[7]);
}

function attribute(id: number, name: string, flag: string, value: number, worst: number, thresh: string, type: string, updated: string, whenFailed: string, raw: string): AtaAttribute {
  return {
    id,
    name,
    flag,
    value,
    worst,
    thresh: thresh === '---' ? undefined : Number(thresh),
    type,
    updated,
    whenFailed,
    raw,
    rawNumber: firstNumber(raw),
    watched: WATCHED_ATA_IDS.includes(id),
    risk: 'ok',
  };
}

/**
 * WHEN_FAILED as smartctl prints it: `-`, `FAILING_NOW`, `In_the_past` in the `-A` table; `-`,
 * `NOW`, `Past` in the brief (`-x`, `-f brief`) one. Anything else is not understood.
 */
const WHEN_FAILED: ReadonlyMap<string, 'ok' | 'now' | 'past'> = new Map([
  ['-', 'ok'],
  ['', 'ok'],
  ['failing_now', 'now'],
  ['now', 'now'],
  ['in_the_past', 'past'],
  ['past', 'past'],
]);

/** Sets an attribute's risk from its own row and, for watched counters, from the earlier reading. */
function classifyAta(a: AtaAttribute, previousRaw: number | undefined): void {
  const when = WHEN_FAILED.get(a.whenFailed.toLowerCase());
  // A threshold of 0 (or none printed) never fails; then only WHEN_FAILED can say "now".
  if (a.thresh !== undefined && a.thresh > 0 && a.value <= a.thresh) {
    rateOn(a, 'critical', `normalised value ${a.value} is at or below the threshold ${a.thresh}`);
  } else if (when === 'now') {
    rateOn(a, 'critical', 'failing now');
  } else if (when === 'past') {
    rateOn(a, 'warning', 'failed in the past');
  } else if (when === undefined) {
    rateOn(a, 'unknown', `WHEN_FAILED "${a.whenFailed}" not understood`);
  }
  if (!a.watched || a.rawNumber === undefined || a.rawNumber <= 0) return;
  const limit = ATA_CRITICAL_RAW[a.id] ?? Number.POSITIVE_INFINITY;
  if (previousRaw !== undefined && a.rawNumber > previousRaw) rateOn(a, 'critical', `raw count grew from ${previousRaw} to ${a.rawNumber}`);
  else if (a.rawNumber >= limit) rateOn(a, 'critical', `raw count ${a.rawNumber} is at or above ${limit}`);
  else rateOn(a, 'warning', `raw count ${a.rawNumber} is above 0`);
}

/** Rates a field `unknown` because its value could not be read as a number. */
function unreadable(f: SmartField): void {
  f.risk = 'unknown';
  f.reason = `value "${f.text}" not understood`;
}

/** Sets the risk of each NVMe field from the log's rules; `keys[i]` is the key of `h.fields[i]`. */
function classifyNvme(h: NvmeHealth, keys: readonly string[]): void {
  for (const [i, f] of h.fields.entries()) {
    const k = NVME_KEYS[keys[i] as string];
    if (f.value === undefined) {
      // Only the fields a risk is read from matter; an unreadable one cannot be called ok.
      if (k === 'criticalWarning' || k === 'availableSpare' || k === 'percentageUsed' || k === 'mediaErrors') unreadable(f);
      continue;
    }
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

type ScsiNumber = Exclude<keyof ScsiHealth, 'fields' | 'errorCounters'>;

/** smartctl's SCSI labels (and older spellings), normalised by `keyOf`. */
const SCSI_KEYS: Readonly<Record<string, ScsiNumber>> = {
  currentdrivetemperature: 'temperatureC',
  drivetriptemperature: 'tripTemperatureC',
  elementsingrowndefectlist: 'grownDefects',
  pendingdefectcount: 'pendingDefects',
  nonmediumerrorcount: 'nonMediumErrors',
  accumulatedstartstopcycles: 'startStopCycles',
  specifiedcyclecountoverdevicelifetime: 'startStopLimit',
  accumulatedloadunloadcycles: 'loadUnloadCycles',
  specifiedloadunloadcountoverdevicelifetime: 'loadUnloadLimit',
  specifiedloadcountoverdevicelifetime: 'loadUnloadLimit',
  percentageusedenduranceindicator: 'enduranceUsedPercent',
  ssmediausedenduranceindicator: 'enduranceUsedPercent',
};

/** The SCSI values a risk is read from: an unreadable value makes the field unknown. */
const SCSI_RATED: ReadonlySet<ScsiNumber> = new Set<ScsiNumber>(['grownDefects', 'pendingDefects', 'nonMediumErrors', 'startStopCycles', 'loadUnloadCycles', 'enduranceUsedPercent', 'temperatureC']);

// read:  fast  delayed  rereads/rewrites  total-corrected  invocations  gigabytes  uncorrected
const SCSI_COUNTER_ROW = /^\s*(read|write|verify):\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+(?:[.,]\d+)?)\s+(\d+)\s*$/i;
const SCSI_COUNTER_START = /^\s*(read|write|verify):/i;
/** smartctl prints OK; PASSED is ATA's word, which a system's own wrapper may carry over. Anything else names a failure. */
const SCSI_HEALTHY = /^(OK|PASSED)$/i;
// smartctl prints this line (no colon between label and value) when the start-stop page has it.
const SCSI_POWER_ON = /^\s*Accumulated power on time, hours:minutes\s+(\d+):(\d+)\s*$/i;

/** SCSI text as smartctl prints it, collected line by line before it is rated. */
interface ScsiScan {
  seen: boolean;
  health?: string;
  fields: SmartField[];
  /** The key ({@link keyOf}) of each field, in the same order. */
  keys: string[];
  counters: ScsiErrorCounter[];
  /** The error counter log was printed (as a table, or as "not supported"). */
  countersSeen: boolean;
  /** Lines inside a known section that could not be read, as findings. */
  problems: SmartFinding[];
}

const SCSI_COUNTER_LOG = /^\s*Error counter log:?\s*$/i;
const SCSI_COUNTER_HEADER = /errors|ECC|fast|rewrites|uncorrected|processed/i;
const SCSI_COUNTERS_UNSUPPORTED = /^\s*Error Counter logging not supported/i;
const SCSI_HEALTH = /^\s*SMART Health Status:\s*(.*?)\s*$/i;
const SCSI_TRANSPORT_OR_DEFECTS = /^\s*(Transport protocol:\s*SAS|Read defect list\b)/i;
const SCSI_DEFECTS_UNREAD = /^\s*Read defect list\b/i;
const NOT_AVAILABLE = /not available/i;
const ACCUMULATED_POWER_ON = keyOf('Accumulated power on time');

/**
 * Reads one line of SCSI output into `scan`; returns whether the line was SCSI's. Each pattern is
 * tried only on lines whose first character (in either case: they ignore case) could start it.
 */
function scanScsiLine(l: Line, scan: ScsiScan, table: { open: boolean; hasRows: boolean }): boolean {
  // The first character in lower case ('e', 'r', 'w', 'v', 's', 'a', 't'): these patterns ignore case.
  const letter = l.first | 0x20;
  if (letter === 101 && SCSI_COUNTER_LOG.test(lineText(l))) {
    scan.seen = true;
    scan.countersSeen = true;
    table.open = true;
    table.hasRows = false;
    return true;
  }
  if (table.open) {
    if ((letter === 114 || letter === 119 || letter === 118) && SCSI_COUNTER_START.test(lineText(l))) {
      const line = lineText(l);
      table.hasRows = true;
      const m = SCSI_COUNTER_ROW.exec(line);
      if (!m) {
        scan.problems.push({ risk: 'unknown', subject: 'Error counter log', message: `row not understood: "${line.trim()}"` });
        return true;
      }
      const n = (i: number): number => Number((m[i] as string).replace(',', '.'));
      scan.counters.push({
        operation: (m[1] as string).toLowerCase(),
        correctedFast: n(2),
        correctedDelayed: n(3),
        rereadsRewrites: n(4),
        totalCorrected: n(5),
        algorithmInvocations: n(6),
        gigabytesProcessed: n(7),
        uncorrected: n(8),
        risk: 'ok',
      });
      return true;
    }
    // The three header lines of the table; the table ends at the first other line after its rows.
    if (!table.hasRows && (l.first === -1 || SCSI_COUNTER_HEADER.test(lineText(l)))) return true;
    table.open = false;
    if (!table.hasRows) scan.problems.push({ risk: 'unknown', subject: 'Error counter log', message: 'printed without any read, write or verify row' });
  }
  if (letter === 101 && SCSI_COUNTERS_UNSUPPORTED.test(lineText(l))) {
    scan.seen = true;
    scan.countersSeen = true;
    return true;
  }
  const health = letter === 115 ? SCSI_HEALTH.exec(lineText(l)) : null;
  if (health) {
    scan.seen = true;
    scan.health = health[1] as string;
    return true;
  }
  const powerOn = letter === 97 ? SCSI_POWER_ON.exec(lineText(l)) : null;
  if (powerOn) {
    scan.seen = true;
    scan.fields.push({ label: 'Accumulated power on time', text: `${powerOn[1]}:${powerOn[2]}`, value: Number(powerOn[1]), risk: 'ok' });
    scan.keys.push(ACCUMULATED_POWER_ON);
    return true;
  }
  if ((letter === 116 || letter === 114) && SCSI_TRANSPORT_OR_DEFECTS.test(lineText(l))) scan.seen = true;
  if (letter === 114 && SCSI_DEFECTS_UNREAD.test(lineText(l))) {
    scan.problems.push({ risk: 'unknown', subject: 'Elements in grown defect list', message: `not read: "${lineText(l).trim()}"` });
    return true;
  }
  if (!splitKeyValue(l) || SCSI_KEYS[l.key] === undefined) return false;
  scan.seen = true;
  const text = valueOf(l);
  // smartctl prints "<not available>" for a sensor the drive lacks: absent, not unreadable.
  scan.fields.push({ label: labelOf(l), text, value: NOT_AVAILABLE.test(text) ? undefined : firstNumber(text), risk: 'ok' });
  scan.keys.push(l.key);
  return true;
}

/** Rates a SCSI field or counter row, keeping the most severe reason. */
function rateOn(target: { risk: SmartRisk; reason?: string }, risk: SmartRisk, reason: string): void {
  if (RANK[risk] > RANK[target.risk]) {
    target.risk = risk;
    target.reason = reason;
  }
}

/** Risk of a count where any is a warning, `critical` or more (or growth since `previous`) critical. */
function rateCount(target: { risk: SmartRisk; reason?: string }, count: number, critical: number, what: string, previous: number | undefined): void {
  if (count <= 0) return;
  if (previous !== undefined && count > previous) rateOn(target, 'critical', `${what} grew from ${previous} to ${count}`);
  else if (count >= critical) rateOn(target, 'critical', `${count} ${what}, at or above ${critical}`);
  else rateOn(target, 'warning', `${count} ${what}`);
}

/** Builds the SCSI health from a scan and rates it against smartctl's own limits and `previous`. */
function classifyScsi(scan: ScsiScan, previous: ScsiHealth | undefined): ScsiHealth {
  const h: ScsiHealth = { fields: scan.fields, errorCounters: scan.counters };
  for (const [i, f] of scan.fields.entries()) {
    const k = SCSI_KEYS[scan.keys[i] as string];
    if (k !== undefined && f.value !== undefined && h[k] === undefined) h[k] = f.value;
  }
  for (const [i, f] of scan.fields.entries()) {
    const k = SCSI_KEYS[scan.keys[i] as string];
    if (k === undefined) continue;
    if (f.value === undefined) {
      if (SCSI_RATED.has(k) && !NOT_AVAILABLE.test(f.text)) unreadable(f);
      continue;
    }
    if (k === 'grownDefects') rateCount(f, f.value, SCSI_CRITICAL_COUNT.grownDefects, 'elements in the grown defect list', previous?.grownDefects);
    else if (k === 'pendingDefects') rateCount(f, f.value, SCSI_CRITICAL_COUNT.pendingDefects, 'pending defects', previous?.pendingDefects);
    else if (k === 'nonMediumErrors') {
      // Non-medium errors (transport, resets) accumulate on healthy drives; only new ones matter.
      if (previous?.nonMediumErrors !== undefined && f.value > previous.nonMediumErrors) rateOn(f, 'warning', `non-medium errors grew from ${previous.nonMediumErrors} to ${f.value}`);
    } else if (k === 'temperatureC' && h.tripTemperatureC !== undefined && h.tripTemperatureC > 0) {
      if (f.value >= h.tripTemperatureC) rateOn(f, 'critical', `${f.value} C is at or above the trip temperature ${h.tripTemperatureC} C`);
      else if (f.value >= h.tripTemperatureC - SCSI_TEMPERATURE_MARGIN_C) rateOn(f, 'warning', `${f.value} C is within ${SCSI_TEMPERATURE_MARGIN_C} C of the trip temperature ${h.tripTemperatureC} C`);
    } else if (k === 'startStopCycles' || k === 'loadUnloadCycles') {
      const limit = k === 'startStopCycles' ? h.startStopLimit : h.loadUnloadLimit;
      const what = k === 'startStopCycles' ? 'start-stop cycles' : 'load-unload cycles';
      // smartctl prints a specified count of 0 when the drive does not specify one.
      if (limit === undefined || limit <= 0) continue;
      if (f.value >= limit) rateOn(f, 'critical', `${f.value} ${what} reached the ${limit} specified over the drive's lifetime`);
      else if (f.value >= limit * SCSI_CYCLES_WARNING_SHARE) rateOn(f, 'warning', `${f.value} ${what} of the ${limit} specified over the drive's lifetime`);
    } else if (k === 'enduranceUsedPercent') {
      if (f.value >= 100) rateOn(f, 'critical', `${f.value}% of the rated endurance is used`);
      else if (f.value >= NVME_WEAR_WARNING_PERCENT) rateOn(f, 'warning', `${f.value}% of the rated endurance is used`);
    }
  }
  for (const c of scan.counters) {
    const before = previous?.errorCounters.find((p) => p.operation === c.operation)?.uncorrected;
    rateCount(c, c.uncorrected, SCSI_CRITICAL_COUNT.uncorrected, `uncorrected ${c.operation} errors`, before);
  }
  return h;
}

/** The findings of a SCSI report: a health status other than OK, rated fields and rows, and what is missing. */
function scsiFindings(scan: ScsiScan, h: ScsiHealth): SmartFinding[] {
  const findings: SmartFinding[] = [];
  const finding = (t: { risk: SmartRisk; reason?: string }, subject: string): void => {
    if (t.risk !== 'ok') findings.push({ risk: t.risk, subject, message: t.reason ?? '' });
  };
  if (scan.health === '') findings.push({ risk: 'unknown', subject: 'SMART Health Status', message: 'printed without a value' });
  else if (scan.health !== undefined && !SCSI_HEALTHY.test(scan.health)) findings.push({ risk: 'critical', subject: 'SMART Health Status', message: `the drive reports ${scan.health}` });
  for (const f of h.fields) finding(f, f.label);
  for (const c of h.errorCounters) finding(c, `${c.operation}: Total uncorrected errors`);
  findings.push(...scan.problems);
  // Without these the output was cut short or came from another command: nothing can be called ok.
  const missing = [
    ...(scan.health === undefined ? ['SMART Health Status'] : []),
    ...(scan.keys.includes('elementsingrowndefectlist') || scan.problems.some((p) => keyOf(p.subject) === 'elementsingrowndefectlist') ? [] : ['Elements in grown defect list']),
    ...(!scan.countersSeen ? ['Error counter log'] : []),
  ];
  for (const subject of missing) findings.push({ risk: 'unknown', subject, message: 'not in the output (cut short, or another command\'s output?)' });
  return findings;
}

/**
 * Parses SMART text and classifies its risk.
 *
 * ATA: watched attributes (5, 187, 188, 197, 198) with a raw count above 0 are a warning; a count at
 * or above `ATA_CRITICAL_RAW`, or one that grew since `previous`, is critical; any attribute at or
 * below its threshold (or `FAILING_NOW`) is critical. NVMe: a critical warning other than 0x00 or an
 * available spare below its threshold is critical; percentage used ≥ 90 or media errors > 0 is a
 * warning. A FAILED self-assessment is critical for both. SCSI (SAS): a health status other than OK
 * is critical; grown defects, pending defects and uncorrected read/write/verify errors above 0 are a
 * warning, at or above `SCSI_CRITICAL_COUNT` or grown since `previous` critical; temperature at or
 * above the trip temperature is critical, within `SCSI_TEMPERATURE_MARGIN_C` a warning; start-stop
 * or load-unload cycles at the specified lifetime count are critical, at 90 % a warning; SSD
 * endurance used ≥ 90 % a warning, ≥ 100 % critical; non-medium errors that grew a warning.
 * Unknown: text in none of the three layouts; a rated value that is not a number; SCSI output
 * missing its health status, grown defect list or error counter log.
 *
 * @param text the SMART output; never throws, whatever it holds.
 * @param previous an earlier report of the same drive, to tell a growing counter from a stable one.
 */
export function parseSmart(text: string, previous?: SmartReport): SmartReport {
  // smartctl --json: read as the text smartctl prints for it.
  const doc = text.trimStart().startsWith('{') ? jsonOf(text) : undefined;
  if (doc !== undefined) return parseSmartText(smartctlJsonText(doc), previous);
  return parseSmartText(text, previous);
}

function jsonOf(text: string): Record<string, unknown> | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // Not JSON after all: read as text.
  }
  return isSmartctlJson(v) ? v : undefined;
}

function parseSmartText(text: string, previous: SmartReport | undefined): SmartReport {
  const attributes: AtaAttribute[] = [];
  const nvmeFields: NvmeField[] = [];
  const nvmeKeys: string[] = [];
  const info: { model?: string; serial?: string; firmware?: string; overallHealth?: string } = {};
  let vendor: string | undefined;
  const scan: ScsiScan = { seen: false, fields: [], keys: [], counters: [], countersSeen: false, problems: [] };
  const counterTable = { open: false, hasRows: false };
  let inAtaTable = false;
  let inNvmeLog = false;
  // Patterns that may match anywhere in a line are found in the text; a line holds one when the next one starts in it.
  let nvmeLogAt = nextMatch(NVME_LOG, text, 0);
  let overallAt = nextMatch(OVERALL_LABEL, text, 0);
  const l = newLine(text);

  // Line by line as text.split('\n') would cut it, without the array. The CR of a CRLF stays on the
  // line: it is white space, which every reader ignores at a line's end.
  for (let pos = 0; pos <= text.length; ) {
    const newline = text.indexOf('\n', pos);
    const end = newline === -1 ? text.length : newline;
    readLine(l, pos, end);
    pos = end + 1;
    const nvmeLog = nvmeLogAt < end;
    if (nvmeLog) nvmeLogAt = nextMatch(NVME_LOG, text, pos);
    const overallLabel = overallAt < end;
    if (overallLabel) overallAt = nextMatch(OVERALL_LABEL, text, pos);
    // Each anchored pattern is tried only on lines whose first character could start it ('I' or a digit).
    const first = l.first;
    if (first === 73 && ATA_HEADER.test(lineText(l))) {
      inAtaTable = true;
      continue;
    }
    if (inAtaTable) {
      const row = first >= 48 && first <= 57 ? parseAtaRow(lineText(l)) : undefined;
      if (row) {
        attributes.push(row);
        continue;
      }
      // Any other line ends the table (the brief layout's flag legend under it too, which nothing reads).
      inAtaTable = false;
    }
    if (nvmeLog) {
      inNvmeLog = true;
      continue;
    }
    // The log ends at the first blank line; error and self-test logs may follow.
    if (first === -1) inNvmeLog = false;
    if (scanScsiLine(l, scan, counterTable)) continue;
    const overall = overallLabel ? OVERALL.exec(lineText(l)) : null;
    if (overall) {
      info.overallHealth = overall[1] as string;
      continue;
    }
    if (!splitKeyValue(l)) continue;
    const key = l.key;
    if (key === 'devicemodel' || key === 'modelnumber' || key === 'product') info.model ??= valueOf(l);
    else if (key === 'vendor') vendor ??= valueOf(l);
    else if (key === 'serialnumber') info.serial ??= valueOf(l);
    else if (key === 'firmwareversion' || key === 'revision') info.firmware ??= valueOf(l);
    // Inside the log every line is kept; outside it only fields known by name (nvme-cli's smart-log).
    else if (inNvmeLog || NVME_KEYS[key] !== undefined) {
      const value = valueOf(l);
      nvmeFields.push({ label: labelOf(l), text: value, value: firstNumber(value), risk: 'ok' });
      nvmeKeys.push(key);
    }
  }
  // A table still open at the end of the text was cut before any row.
  if (counterTable.open && !counterTable.hasRows) scan.problems.push({ risk: 'unknown', subject: 'Error counter log', message: 'printed without any read, write or verify row' });

  const previousRaw = new Map(previous?.attributes.map((a) => [a.id, a.rawNumber] as const));
  for (const a of attributes) classifyAta(a, previousRaw.get(a.id));

  let kind: SmartReport['kind'] = 'unknown';
  let nvme: NvmeHealth | undefined;
  let scsi: ScsiHealth | undefined;
  const findings: SmartFinding[] = [];
  if (attributes.length > 0) {
    kind = 'ata';
  } else if (scan.seen) {
    kind = 'scsi';
    scsi = classifyScsi(scan, previous?.scsi);
    if (scan.health !== undefined) info.overallHealth = scan.health;
    // SCSI names the maker apart from the product; the product alone is ambiguous across vendors.
    if (vendor !== undefined && info.model !== undefined) info.model = `${vendor} ${info.model}`;
  } else if (nvmeKeys.some((k) => NVME_KEYS[k] !== undefined)) {
    kind = 'nvme';
    nvme = { fields: nvmeFields };
    for (const [i, f] of nvmeFields.entries()) {
      const k = NVME_KEYS[nvmeKeys[i] as string];
      // The first occurrence wins: smartctl prints Temperature once, later sensors separately.
      if (k !== undefined && f.value !== undefined && nvme[k] === undefined) nvme[k] = f.value;
    }
    classifyNvme(nvme, nvmeKeys);
  }

  if (kind !== 'scsi' && info.overallHealth !== undefined && /FAIL/i.test(info.overallHealth)) {
    findings.push({ risk: 'critical', subject: 'overall health', message: `self-assessment ${info.overallHealth}` });
  }
  for (const a of attributes) if (a.risk !== 'ok') findings.push({ risk: a.risk, subject: `${a.id} ${a.name}`, message: a.reason ?? '' });
  for (const f of nvme?.fields ?? []) if (f.risk !== 'ok') findings.push({ risk: f.risk, subject: f.label, message: f.reason ?? '' });
  if (scsi) findings.push(...scsiFindings(scan, scsi));
  if (kind === 'unknown') {
    findings.push({ risk: 'unknown', subject: 'format', message: 'no ATA attribute table, NVMe health log or SCSI health status, defect list or error counter log in this text' });
  }

  return {
    kind,
    ...info,
    attributes,
    ...(nvme ? { nvme } : {}),
    ...(scsi ? { scsi } : {}),
    risk: findings.reduce<SmartRisk>((r, f) => worstRisk(r, f.risk), 'ok'),
    findings,
  };
}
