import { getOperation, type Operation } from '../../app/catalog/index.js';
import { redact } from '../../app/redact.js';
import { ApiError, AuthError, CancelledError, CertificateError, UnreachableError } from '../client/index.js';
import type { ActionLog, PendingWrite, WriteResult } from '../store/action-log.js';
import { Deadline, type Timers } from './deadline.js';
import { LoginRequiredError, OutcomeUnknownError } from './errors.js';
import type { CallParams, SiteConnection } from './site-connection.js';

/** Connection failures that happen before a request leaves: the write was not sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Answers that say the request was turned away before any work (429 Too Many Requests). */
const NOT_APPLIED = new Set(['http-429']);

/** How a write that threw ended, and the error the caller gets. */
export async function failedWrite(
  conn: SiteConnection,
  system: string | undefined,
  op: Operation,
  params: CallParams,
  err: unknown,
  sent: boolean,
  check: { timeoutMs: number; timers: Timers },
): Promise<{ result: WriteResult; message: string; error: unknown }> {
  const message = err instanceof Error ? err.message : String(err);
  const notDelivered = !sent || err instanceof CertificateError || (err instanceof UnreachableError && NOT_DELIVERED.has(err.reason));
  if (notDelivered) return { result: 'refused', message: `not sent: ${message}`, error: err };
  if (err instanceof ApiError || err instanceof AuthError || err instanceof LoginRequiredError) return { result: 'refused', message, error: err };
  if (err instanceof UnreachableError && NOT_APPLIED.has(err.reason)) return { result: 'refused', message: `not applied: ${message}`, error: err };
  if (err instanceof CancelledError) {
    const error = new OutcomeUnknownError(`${op.key} was cancelled after it was sent; it may or may not have happened (or may still be running on the system) and was not resent: check before retrying`);
    return { result: 'unknown', message: error.message, error };
  }
  if (!(err instanceof UnreachableError)) return { result: 'unknown', message: `sent, but its answer could not be used: ${message}`, error: err };
  const what = err.reason === 'timeout' ? 'timed out' : 'lost its connection after it was sent';
  const deadline = new Deadline(check.timeoutMs, `checking the outcome of ${op.key}`, check.timers);
  const outcome = await checkOutcome(conn, system, op, params, deadline)
    .catch(() => 'unknown' as const)
    .finally(() => deadline.dispose());
  const error = new OutcomeUnknownError(
    outcome === 'applied'
      ? `${op.key} ${what} but a list shows it was applied`
      : outcome === 'absent'
        ? `${op.key} ${what} and a list shows it was not applied; it was not resent`
        : `${op.key} ${what}; it may or may not have happened and was not resent: check before retrying`,
  );
  return { result: 'unknown', message: error.message, error };
}

/** Records a write's outcome. The write already happened: a log that fails now leaves it listed as unknown. */
export function recordOutcome(actionLog: ActionLog, at: Date, pending: PendingWrite, result: WriteResult, message: string, secrets: readonly string[]): void {
  try {
    actionLog.complete(pending, { at, result, message: redact(message, secrets) });
  } catch {
    // The intent stays in the log with no outcome, which lists it as "outcome unknown"; the
    // next write will be refused with the log's error if the file is the problem.
  }
}

/** After a write timed out: list to see whether a create/add happened, without resending it. */
async function checkOutcome(conn: SiteConnection, system: string | undefined, op: Operation, params: CallParams, deadline: Deadline): Promise<'applied' | 'absent' | 'unknown'> {
  if (!/\/(create|add)$/.test(op.path)) return 'unknown';
  const body = (params.body ?? {}) as Record<string, unknown>;
  const name = body.Name ?? body.Application;
  if (typeof name !== 'string') return 'unknown';
  const listPath = op.path.replace(/\/(create|add)$/, '/list');
  let listOp: Operation;
  try {
    listOp = getOperation(`GET ${listPath}`);
  } catch {
    return 'unknown';
  }
  const list = (): Promise<unknown> => conn.read(system, listOp, { deadline });
  const result = (await (system === undefined ? list() : conn.readScope(system, { deadline }, list))) as { Data?: Array<Record<string, unknown>> };
  const found = (result.Data ?? []).some((item) => item.Name === name || item.Application === name);
  return found ? 'applied' : 'absent';
}
