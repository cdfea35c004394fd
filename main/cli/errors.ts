import { ValidationError } from '../../app/catalog/index.js';
import { InputError } from '../../app/errors.js';
import { terminalField } from '../../app/safe-text.js';
import { ApiError, AuthError, CertificateError, ClientError, ProtocolError, UnreachableError } from '../client/index.js';
import { StoreError } from '../store/store-error.js';
import { CliError, EXIT } from './io.js';

/**
 * Maps a failure to the CLI's message and exit code. Messages that are not the CLI's own may carry
 * a system's text: they are kept to one line, so they cannot forge another.
 */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const message = terminalField(err instanceof Error ? err.message : String(err));
  // Input the user can correct (a bad name or URL, an unknown site) is a usage error: nothing was sent.
  if (err instanceof ValidationError || err instanceof InputError) return new CliError(message, EXIT.usage);
  if (err instanceof StoreError) return new CliError(message, EXIT.store);
  if (err instanceof ApiError) return new CliError(`the system refused: ${message}`, EXIT.api);
  if (err instanceof AuthError) return new CliError(`not authorized: ${message}`, EXIT.auth);
  if (err instanceof UnreachableError) return new CliError(message, EXIT.unreachable);
  if (err instanceof CertificateError) return new CliError(message, EXIT.certificate);
  if (err instanceof ProtocolError) return new CliError(message, EXIT.protocol);
  if (err instanceof ClientError) return new CliError(message, EXIT.protocol);
  return new CliError(message, EXIT.protocol);
}
