import { hashAction, hashedFieldsOf, type HashedRecord } from '../store/action-log.js';

/**
 * The syslog form of an action-log record: RFC 5424, framed by octet counting (RFC 6587 3.4.1).
 *
 *     <PRI>1 AT HOST fleetdeck PID KIND [fleetdeck@32473 logId="…" seq="N" hash="…" prevHash="…"] {record JSON}
 *
 * - PRI: facility 13 (log audit); severity 5 (notice), or 4 (warning) for a write refused, with an
 *   unknown outcome, or a format-1 error.
 * - TIMESTAMP: the record's own time; MSGID: its kind (intent, outcome, local, restart, write).
 * - SD-ID `fleetdeck@32473`: 32473 is the private enterprise number RFC 5612 reserves for
 *   documentation, a placeholder until Fleetdeck has its own; collectors match the whole SD-ID.
 * - MSG: the record as stored (already redacted), as JSON, with every field its hash covers
 *   (`paramsJson` is the stored parameter text itself), so a collector's copy can be verified alone.
 */

/** The structured-data ID of Fleetdeck's element. */
export const SD_ID = 'fleetdeck@32473';
const FACILITY_LOG_AUDIT = 13;
const WARNING_RESULTS = new Set(['refused', 'unknown', 'error']);

/** What a forwarded message carries in MSG: the record's stored fields and the log it belongs to. */
export interface ForwardedRecord extends HashedRecord {
  logId: string;
}

/** HOSTNAME as RFC 5424 allows it (printable US-ASCII, at most 255), '-' when none. */
export function syslogHostname(name: string): string {
  const clean = name.replace(/[^!-~]/g, '').slice(0, 255);
  return clean || '-';
}

/** An SD-PARAM value with `"`, `\` and `]` escaped (RFC 5424 6.3.3). */
function sdValue(text: string): string {
  return text.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** One record as an RFC 5424 message (without framing). */
export function syslogMessage(record: HashedRecord, logId: string, host: string, procId: number): string {
  const severity = WARNING_RESULTS.has(record.result) ? 4 : 5;
  const pri = FACILITY_LOG_AUDIT * 8 + severity;
  const sd = `[${SD_ID} logId="${sdValue(logId)}" seq="${record.seq}" hash="${sdValue(record.hash)}" prevHash="${sdValue(record.prevHash)}"]`;
  const body: ForwardedRecord = { logId, ...record };
  return `<${pri}>1 ${record.at} ${host} fleetdeck ${procId} ${record.kind.slice(0, 32) || '-'} ${sd} ${JSON.stringify(body)}`;
}

/** A message framed by octet counting: `LENGTH SP MESSAGE`, LENGTH in bytes. */
export function octetFrame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}

/** A Fleetdeck message read back from a collector's file. */
export interface ParsedMessage {
  logId: string;
  seq: number;
  hash: string;
  prevHash: string;
  /** The record from MSG; undefined when MSG is not a record (the reason in `problem`). */
  record?: ForwardedRecord | undefined;
  /** Why the message cannot be trusted as the record it names. */
  problem?: string | undefined;
}

const SD_PATTERN = new RegExp(`\\[${SD_ID}((?: [A-Za-z]+="(?:[^"\\\\\\]]|\\\\.)*")*)\\]`);
const PARAM_PATTERN = /([A-Za-z]+)="((?:[^"\\\]]|\\.)*)"/g;

/**
 * Reads one line of a collector's file: undefined when it carries no Fleetdeck element (other
 * programs' messages share the file). The element's values and the record in MSG must agree, and
 * the record's content must match its hash; otherwise `problem` says what is wrong.
 */
export function parseSyslogLine(line: string): ParsedMessage | undefined {
  const m = SD_PATTERN.exec(line);
  if (!m) return undefined;
  const params = new Map<string, string>();
  for (const p of (m[1] ?? '').matchAll(PARAM_PATTERN)) params.set(p[1] as string, (p[2] as string).replace(/\\(.)/g, '$1'));
  const seq = Number(params.get('seq'));
  const parsed: ParsedMessage = { logId: params.get('logId') ?? '', seq, hash: params.get('hash') ?? '', prevHash: params.get('prevHash') ?? '' };
  if (!parsed.logId || !Number.isInteger(seq) || seq < 1) return { ...parsed, problem: 'the structured data lacks a log id or a valid seq' };
  let msg = line.slice(m.index + m[0].length).replace(/^ /, '').replace(/^\uFEFF/, '');
  msg = msg.replace(/\r?\n$/, '');
  let record: ForwardedRecord;
  try {
    record = JSON.parse(msg) as ForwardedRecord;
  } catch {
    return { ...parsed, problem: 'the message is not a complete record (cut short or altered)' };
  }
  if (typeof record !== 'object' || record === null || record.seq !== seq || record.hash !== parsed.hash || record.prevHash !== parsed.prevHash || record.logId !== parsed.logId) {
    return { ...parsed, problem: 'the structured data and the record in the message disagree' };
  }
  const computed = hashAction(hashedFieldsOf(record));
  if (computed !== record.hash) return { ...parsed, record, problem: 'the record does not match its hash: it was altered' };
  return { ...parsed, record };
}
