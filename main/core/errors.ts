import { InputError } from '../../app/errors.js';
import { ClientError } from '../client/index.js';
import { StoreError } from '../store/store-error.js';

/** The system needs an interactive login: no stored password, a rejected password, or a second factor. */
export class LoginRequiredError extends Error {
  override readonly name = 'LoginRequiredError';
  readonly code = 'login-required';
  constructor(
    message: string,
    /** True when a two-factor code is what is missing or wrong. */
    readonly needsCode = false,
  ) {
    super(message);
  }
}

/** The site is paused: nothing is sent to it until it is resumed. */
export class SitePausedError extends Error {
  override readonly name = 'SitePausedError';
  readonly code = 'paused';
}

/** A write got no answer in time: it may or may not have happened. It is never resent blindly. */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  readonly code = 'outcome-unknown';
}

/** Stable code of any error the core or client raises, for IPC and the CLI. */
export function errorCode(err: unknown): string {
  if (err instanceof ClientError || err instanceof InputError) return err.code;
  if (err instanceof LoginRequiredError || err instanceof SitePausedError || err instanceof OutcomeUnknownError || err instanceof StoreError) return err.code;
  if (err instanceof Error && err.name === 'ValidationError') return 'validation';
  return 'internal';
}
