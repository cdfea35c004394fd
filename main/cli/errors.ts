import { ValidationError } from '../../app/catalog/index.js';
import { ApiError, AuthError, CertificateError, ClientError, ProtocolError, UnreachableError } from '../client/index.js';
import { CliError, EXIT } from './io.js';

/** Maps a client failure to the CLI's message and exit code. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof ValidationError) return new CliError(err.message, EXIT.usage);
  if (err instanceof ApiError) return new CliError(`the system refused: ${err.message}`, EXIT.api);
  if (err instanceof AuthError) return new CliError(`not authorized: ${err.message}`, EXIT.auth);
  if (err instanceof UnreachableError) return new CliError(err.message, EXIT.unreachable);
  if (err instanceof CertificateError) return new CliError(err.message, EXIT.certificate);
  if (err instanceof ProtocolError) return new CliError(err.message, EXIT.protocol);
  if (err instanceof ClientError) return new CliError(err.message, EXIT.protocol);
  return new CliError(err instanceof Error ? err.message : String(err), EXIT.protocol);
}
