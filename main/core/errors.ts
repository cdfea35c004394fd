import { CodedError } from '../../app/errors.js';
import { ProtocolError } from '../client/errors.js';

export { errorCode } from '../../app/errors.js';

/** The system needs an interactive login: no stored password, a rejected password, or a second factor. */
export class LoginRequiredError extends CodedError {
  override readonly name = 'LoginRequiredError';
  declare readonly code: 'login-required';
  constructor(
    message: string,
    /** True when a two-factor code is what is missing or wrong. */
    readonly needsCode = false,
  ) {
    super('login-required', message);
  }
}

/** The site is paused: nothing is sent to it until it is resumed. */
export class SitePausedError extends CodedError {
  override readonly name = 'SitePausedError';
  declare readonly code: 'paused';
  constructor(message: string) {
    super('paused', message);
  }
}

/** A write got no answer in time: it may or may not have happened. It is never resent blindly. */
export class OutcomeUnknownError extends CodedError {
  override readonly name = 'OutcomeUnknownError';
  declare readonly code: 'outcome-unknown';
  constructor(message: string) {
    super('outcome-unknown', message);
  }
}

/**
 * A system's session was found on another system after its reads: they may have been answered by
 * that system, so they are discarded (never cached or shown as the system's).
 */
export class SelectionMovedError extends ProtocolError {
  override readonly name = 'SelectionMovedError';
}
