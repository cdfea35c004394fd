import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { AnswerTooLargeError } from './errors.js';

/** What a request got back, before anything reads it: status, headers and the body's bytes as they came. */
export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent (still content-encoded); empty for a redirect, whose body is not kept. */
  bytes: Buffer;
}

/** Bytes of answers a group of calls may still read. */
export interface ByteBudget {
  remaining: number;
  /** The budget's size, for messages. */
  readonly total: number;
}

/** What bounds one exchange: its own timeout, the caller's signal, and the bytes it may read. */
export interface ExchangeBounds {
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Upper bound on this answer's bytes. */
  maxBytes: number;
  /** Shared byte budget: the answer's bytes are taken from it as they arrive and given back if it fails. */
  budget: ByteBudget | undefined;
  /** `host operation`, for messages. */
  where: string;
}

/** Statuses whose body is not read (a redirect is never followed): dropped as it arrives. */
const DISCARDED_STATUSES = new Set([301, 302, 303, 307, 308]);
/** How much of a dropped body is read to keep the connection; past it the connection is closed. */
const DISCARD_LIMIT = 128 * 1024;

/**
 * One request and its whole answer through undici's dispatch handler: the body's chunks are
 * collected as they arrive, with no response stream, promise per chunk, async resource or abort
 * listener of undici's own (its `request()` made each a fifth of the client's CPU per answer).
 * The caller's signal and the timeout end it; an answer past `maxBytes` or the budget is cut off
 * with AnswerTooLargeError and its bytes given back to the budget.
 * @throws AnswerTooLargeError, the signal's reason, a TimeoutError DOMException, or undici's network error
 */
export function exchangeOnce(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, bounds: ExchangeBounds): Promise<WireAnswer> {
  return new Promise((resolve, reject) => new AnswerHandler(bounds, resolve, reject).start(dispatcher, request));
}

/** Whether {@link exchangeOnce} failed by its own timeout (the caller's signal reports its own reason). */
export function isExchangeTimeout(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'TimeoutError';
}

class AnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** Why it was ended before undici started it: applied once it does. */
  private pendingAbort: Error | undefined;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly bounds: ExchangeBounds,
    private readonly resolve: (answer: WireAnswer) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  start(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions): void {
    const { signal, timeoutMs } = this.bounds;
    if (signal?.aborted) return this.fail(signal.reason);
    this.timer = setTimeout(this.onTimeout, timeoutMs);
    // Like AbortSignal.timeout's: a request in flight keeps the process alive by its socket, not by its timer.
    this.timer.unref();
    if (signal) watch(signal, this);
    dispatcher.dispatch(request, this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingAbort) controller.abort(this.pendingAbort);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx informational answers come before the real one.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
    this.discarding = DISCARDED_STATUSES.has(statusCode);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const n = chunk.length;
    this.size += n;
    if (this.discarding) {
      if (this.size > DISCARD_LIMIT) {
        this.succeed();
        controller.abort(new Error('redirect body not read'));
      }
      return;
    }
    const { budget, maxBytes, where } = this.bounds;
    if (budget) budget.remaining -= n;
    if (this.size > maxBytes) return controller.abort(new AnswerTooLargeError(`${where}: answer larger than ${formatBytes(maxBytes)}, not read`, maxBytes));
    if (budget && budget.remaining < 0) {
      return controller.abort(
        new AnswerTooLargeError(`${where}: answer larger than what is left of the ${formatBytes(budget.total)} a system's answers may take per refresh, not read`, budget.total),
      );
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.succeed();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.fail(err);
  }

  private readonly onTimeout = (): void => this.end(new DOMException(`no answer within ${this.bounds.timeoutMs} ms`, 'TimeoutError'));

  /** Ends the request from outside (timeout, caller): at once, even while it still waits for a connection. */
  end(reason: Error): void {
    if (this.settled) return;
    if (this.controller) {
      // Calls onResponseError with the reason, which settles.
      this.controller.abort(reason);
      if (this.settled) return;
    } else {
      this.pendingAbort = reason;
    }
    this.fail(reason);
  }

  private succeed(): void {
    if (this.settled) return;
    this.finish();
    const bytes = this.discarding ? Buffer.alloc(0) : this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, headers: this.headers, bytes });
  }

  private fail(err: unknown): void {
    if (this.settled) return;
    this.finish();
    // The bytes of an answer not kept go back to the budget: only answers read count against it.
    if (this.bounds.budget && !this.discarding) this.bounds.budget.remaining += this.size;
    this.reject(err);
  }

  private finish(): void {
    this.settled = true;
    clearTimeout(this.timer);
    if (this.bounds.signal) unwatch(this.bounds.signal, this);
  }
}

/**
 * The exchanges in flight under each signal, which share one abort listener, removed with the last
 * of them: a system's refresh sends all its reads under its deadline's one signal, and a listener
 * each made every add and remove walk the signal's list.
 */
const inFlight = new WeakMap<AbortSignal, { handlers: Set<AnswerHandler>; onAbort: () => void }>();

function watch(signal: AbortSignal, handler: AnswerHandler): void {
  const watched = inFlight.get(signal);
  if (watched) {
    watched.handlers.add(handler);
    return;
  }
  const handlers = new Set([handler]);
  const onAbort = (): void => {
    inFlight.delete(signal);
    for (const h of handlers) h.end(signal.reason as Error);
  };
  inFlight.set(signal, { handlers, onAbort });
  signal.addEventListener('abort', onAbort, { once: true });
}

function unwatch(signal: AbortSignal, handler: AnswerHandler): void {
  const watched = inFlight.get(signal);
  if (!watched?.handlers.delete(handler) || watched.handlers.size > 0) return;
  inFlight.delete(signal);
  signal.removeEventListener('abort', watched.onAbort);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / (1024 * 1024))} MiB`;
  return n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}
