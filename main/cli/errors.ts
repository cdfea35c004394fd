import { errorEntry, EXIT } from '../../app/errors.js';
import { terminalField } from '../../app/safe-text.js';
import { CliError } from './io.js';

/**
 * Maps a failure to the CLI's message and exit status through the error table (`app/errors.ts`).
 * Messages that are not the CLI's own may carry a system's text: they are kept to one line, so they
 * cannot forge another.
 */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const message = terminalField(err instanceof Error ? err.message : String(err));
  const entry = errorEntry(err);
  return new CliError(entry.prefix ? `${entry.sentence}: ${message}` : message, EXIT[entry.exit]);
}
