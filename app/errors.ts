/**
 * The one error model: every failure Fleetdeck reports carries an {@link ErrorCode}, and
 * {@link ERROR_TABLE} maps each code, in this one place, to the code that crosses IPC, the CLI's exit
 * status and the sentence a user reads. Error classes only choose their code.
 */

/** CLI exit statuses. README's exit-code table is generated from {@link EXIT_MEANING} (tested). */
export const EXIT = {
  ok: 0,
  api: 1,
  usage: 2,
  unreachable: 3,
  protocol: 4,
  certificate: 5,
  auth: 6,
  store: 7,
  keychain: 8,
  outcomeUnknown: 9,
  cancelled: 10,
  internal: 11,
  alertsOpen: 12,
  checksFailing: 13,
  monitorRunning: 14,
  managed: 15,
  notRead: 16,
} as const;
export type ExitName = keyof typeof EXIT;

/** What each exit status tells a script. */
export const EXIT_MEANING: Readonly<Record<ExitName, string>> = {
  ok: 'ok',
  api: 'refused by the system (HTTP 400, its message printed), an exported report, the action log or its copy on a syslog collector failing verification',
  usage: 'usage or invalid input, an unknown site or report, a clash with what exists, a paused site (nothing sent)',
  unreachable: 'unreachable: no answer, or the site could not answer now (a write is never resent)',
  protocol: 'protocol error: an answer that is not understood, too large, or a redirect',
  certificate: 'certificate not trusted',
  auth: 'not authorized (HTTP 401), or a login is needed',
  store: 'a data file cannot be used (named, with what to do; a write is not sent)',
  keychain: 'the OS keychain cannot be used (locked, not answering, or missing)',
  outcomeUnknown: 'a write was sent but its outcome is unknown (not resent: check before retrying)',
  cancelled: 'cancelled',
  internal: 'an internal error of Fleetdeck (a bug; the message says where)',
  alertsOpen: '`fleetdeck alerts`: at least one alert is open (not acknowledged, not snoozed)',
  checksFailing: '`fleetdeck compliance`: at least one check of the baseline fails on a system without a waiver',
  monitorRunning: '`fleetdeck monitor`: another monitor already polls this data directory (the message names it)',
  managed: 'refused by the machine policy: a read-only workstation, or a site or setting managed by your organisation (nothing was sent or changed)',
  notRead: '`fleetdeck alerts` / `compliance`: nothing open or failing, but a site in scope has no system read yet (never refreshed, or its login failed), so what it would show is unknown',
};

/** Statuses that report what a command found rather than an error: no error code ends with them. */
export const FINDING_EXITS: readonly ExitName[] = ['ok', 'alertsOpen', 'checksFailing', 'notRead'];

/** Codes that cross IPC in `{ code, message }`; the renderer acts on these. */
export type IpcErrorCode =
  | 'validation'
  | 'not-found'
  | 'conflict'
  | 'api'
  | 'auth'
  | 'login-required'
  | 'paused'
  | 'unreachable'
  | 'outcome-unknown'
  | 'cancelled'
  | 'protocol'
  | 'certificate'
  | 'store'
  | 'keychain'
  | 'managed'
  | 'internal';

/** One row of the error table. */
export interface ErrorEntry {
  /** The code the renderer receives. */
  ipc: IpcErrorCode;
  /** The CLI's exit status. */
  exit: ExitName;
  /** What happened, in the words a user reads (the CLI's prefix when `prefix`). */
  sentence: string;
  /** The CLI prints `sentence: message` rather than the message alone. */
  prefix?: boolean;
}

/** code → IPC code, CLI exit status, the sentence a user reads. */
export const ERROR_TABLE = {
  validation: { ipc: 'validation', exit: 'usage', sentence: 'invalid input: nothing was sent' },
  'not-found': { ipc: 'not-found', exit: 'usage', sentence: 'no such site, system or report' },
  conflict: { ipc: 'conflict', exit: 'usage', sentence: 'clashes with what exists' },
  paused: { ipc: 'paused', exit: 'usage', sentence: 'the site is paused: nothing is sent to it until it is resumed' },
  api: { ipc: 'api', exit: 'api', sentence: 'the system refused', prefix: true },
  'verification-failed': { ipc: 'validation', exit: 'api', sentence: 'verification FAILED', prefix: true },
  auth: { ipc: 'auth', exit: 'auth', sentence: 'not authorized', prefix: true },
  'login-required': { ipc: 'login-required', exit: 'auth', sentence: 'log in first' },
  unreachable: { ipc: 'unreachable', exit: 'unreachable', sentence: 'no answer' },
  transient: { ipc: 'unreachable', exit: 'unreachable', sentence: 'the site could not answer now' },
  'outcome-unknown': { ipc: 'outcome-unknown', exit: 'outcomeUnknown', sentence: 'the write may or may not have happened' },
  cancelled: { ipc: 'cancelled', exit: 'cancelled', sentence: 'cancelled' },
  protocol: { ipc: 'protocol', exit: 'protocol', sentence: 'an answer that is not the documented shape' },
  'unrecognised-answer': { ipc: 'protocol', exit: 'protocol', sentence: 'an answer that is not understood' },
  'answer-too-large': { ipc: 'protocol', exit: 'protocol', sentence: 'an answer over the size limit' },
  redirect: { ipc: 'protocol', exit: 'protocol', sentence: 'a redirect, never followed' },
  certificate: { ipc: 'certificate', exit: 'certificate', sentence: 'certificate not trusted' },
  store: { ipc: 'store', exit: 'store', sentence: 'a data file cannot be used' },
  keychain: { ipc: 'keychain', exit: 'keychain', sentence: 'the keychain cannot be used' },
  managed: { ipc: 'managed', exit: 'managed', sentence: 'managed by your organisation' },
  internal: { ipc: 'internal', exit: 'internal', sentence: 'an internal error' },
  'monitor-running': { ipc: 'conflict', exit: 'monitorRunning', sentence: 'another monitor polls this data directory' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** Base of every error Fleetdeck raises on purpose: its code says how IPC and the CLI report it. */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The code of any failure: its own when it is a {@link CodedError}, else `internal` (a fault of the app). */
export function errorCode(err: unknown): ErrorCode {
  return err instanceof CodedError && err.code in ERROR_TABLE ? err.code : 'internal';
}

/** The row of the error table that reports `err`. */
export function errorEntry(err: unknown): ErrorEntry {
  return ERROR_TABLE[errorCode(err)];
}

/** The code `err` crosses IPC with. */
export function ipcErrorCode(err: unknown): IpcErrorCode {
  return errorEntry(err).ipc;
}

/** The exit status the CLI ends with for `err`. */
export function exitStatus(err: unknown): number {
  return EXIT[errorEntry(err).exit];
}

/**
 * README's exit-code table (Markdown): each status, what it means, and the error codes that end with
 * it. README.md holds it between `<!-- exit-codes -->` markers; a test keeps the two equal.
 */
export function exitCodeTable(): string {
  const rows = (Object.keys(EXIT) as ExitName[]).map((name) => {
    const codes = ERROR_CODES.filter((c) => ERROR_TABLE[c].exit === name).map((c) => `\`${c}\``);
    return `| ${EXIT[name]} | ${EXIT_MEANING[name]} | ${codes.join(', ') || '—'} |`;
  });
  return ['| exit | meaning | error codes |', '|---|---|---|', ...rows].join('\n');
}

/** The exit statuses as the CLI's usage text lists them, one per line. */
export function exitCodeList(): string {
  return (Object.keys(EXIT) as ExitName[]).map((name) => `  ${String(EXIT[name]).padStart(2)}  ${EXIT_MEANING[name]}`).join('\n');
}

/** The stable codes of a request the user can correct. */
export type InputErrorCode = 'validation' | 'not-found' | 'conflict';

/**
 * A request the user can correct: a bad value, something that does not exist, or a clash with
 * what exists (a duplicate name, a directory that is not empty). Crosses IPC and the CLI with its
 * code, so the renderer can tell it from a fault of the app.
 */
export class InputError extends CodedError {
  override readonly name: string = 'InputError';
  declare readonly code: InputErrorCode;
  constructor(message: string, code: InputErrorCode = 'validation') {
    super(code, message);
  }
}

/**
 * Refused by the machine policy IT deployed: the workstation is read-only, or the site or setting
 * is managed by the organisation. Nothing was sent or changed.
 */
export class ManagedError extends CodedError {
  override readonly name = 'ManagedError';
  constructor(message: string) {
    super('managed', message);
  }
}
