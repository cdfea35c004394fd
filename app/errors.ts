/** The stable codes of a request the user can correct. */
export type InputErrorCode = 'validation' | 'not-found' | 'conflict';

/**
 * A request the user can correct: a bad value, something that does not exist, or a clash with
 * what exists (a duplicate name, a directory that is not empty). Crosses IPC and the CLI with its
 * code, so the renderer can tell it from a fault of the app.
 */
export class InputError extends Error {
  override readonly name: string = 'InputError';
  constructor(
    message: string,
    readonly code: InputErrorCode = 'validation',
  ) {
    super(message);
  }
}
