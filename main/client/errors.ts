import { CodedError } from '../../app/errors.js';

/** Codes of the client's errors (rows of `ERROR_TABLE` in `app/errors.ts`). */
export type ClientErrorCode = 'api' | 'auth' | 'unreachable' | 'transient' | 'protocol' | 'unrecognised-answer' | 'answer-too-large' | 'redirect' | 'certificate' | 'cancelled';

/** Base of every error the client raises; `code` is stable and reported through `app/errors.ts`'s table. */
export class ClientError extends CodedError {
  declare readonly code: ClientErrorCode;
  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** The service answered 400: `message` is the server's own string. */
export class ApiError extends ClientError {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super('api', message);
  }
}

/** The service answered 401 (failed login, or a missing, unknown or expired token). */
export class AuthError extends ClientError {
  override readonly name = 'AuthError';
  constructor(message: string) {
    super('auth', message);
  }
}

/** No answer: refused, reset, DNS failure or timed out. Safe to retry for reads only. */
export class UnreachableError extends ClientError {
  override readonly name: string = 'UnreachableError';
  constructor(
    message: string,
    readonly reason: string,
    options?: { cause?: unknown },
    code: 'unreachable' | 'transient' = 'unreachable',
  ) {
    super(code, message, options);
  }
}

/**
 * The site could not answer now: 429, or 500/502/503/504 with a body that is not JSON (a proxy's or
 * load balancer's page, not the service's own answer). Reads are retried, after `retryAfterMs` when
 * the answer said (Retry-After); writes are not resent.
 */
export class TransientHttpError extends UnreachableError {
  override readonly name = 'TransientHttpError';
  constructor(
    message: string,
    readonly status: number,
    /** How long the answer asked to wait before trying again (its Retry-After), in ms. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, `http-${status}`, undefined, 'transient');
  }
}

/**
 * True when the answer asked the client to slow down (429, 503 "busy", or any "not now" answer that
 * said when to come back, such as a proxy's 502 page with Retry-After): a poll backs off rather
 * than retries.
 */
export function isThrottling(err: unknown): err is TransientHttpError {
  return err instanceof TransientHttpError && (err.status === 429 || err.status === 503 || err.retryAfterMs !== undefined);
}

/** An answer that is not the documented shape (wrong status, not JSON, wrong body kind). */
export class ProtocolError extends ClientError {
  override readonly name: string = 'ProtocolError';
  constructor(message: string, options?: { cause?: unknown }, code: 'protocol' | 'unrecognised-answer' | 'answer-too-large' | 'redirect' = 'protocol') {
    super(code, message, options);
  }
}

/** An answer larger than the caller allows (per answer, or what is left of a per-system budget): it was cut off, not read. */
export class AnswerTooLargeError extends ProtocolError {
  override readonly name = 'AnswerTooLargeError';
  constructor(
    message: string,
    /** The limit that was exceeded, in bytes. */
    readonly limitBytes: number,
  ) {
    super(message, undefined, 'answer-too-large');
  }
}

/**
 * The site answered with a redirect. It is never followed: the session token and password go only
 * to the URL the admin configured. `location` is where it pointed.
 */
export class RedirectError extends ProtocolError {
  override readonly name = 'RedirectError';
  constructor(
    message: string,
    readonly location: string,
  ) {
    super(message, undefined, 'redirect');
  }
}

/** The TLS certificate is untrusted or differs from the pinned fingerprint. */
export class CertificateError extends ClientError {
  override readonly name = 'CertificateError';
  constructor(
    message: string,
    /** SHA-256 of the certificate presented (lowercase hex), when known. */
    readonly presentedSha256?: string,
    options?: { cause?: unknown },
  ) {
    super('certificate', message, options);
  }
}

/** The caller aborted the call. */
export class CancelledError extends ClientError {
  override readonly name = 'CancelledError';
  constructor(message = 'cancelled') {
    super('cancelled', message);
  }
}
