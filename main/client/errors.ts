/** Base of every error the client raises; `code` is stable and crosses IPC as `{ code, message }`. */
export class ClientError extends Error {
  constructor(
    readonly code: 'api' | 'auth' | 'unreachable' | 'protocol' | 'certificate' | 'cancelled',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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
  override readonly name = 'UnreachableError';
  constructor(
    message: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('unreachable', message, options);
  }
}

/** An answer that is not the documented shape (wrong status, not JSON, wrong body kind). */
export class ProtocolError extends ClientError {
  override readonly name: string = 'ProtocolError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('protocol', message, options);
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
    super(message);
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
