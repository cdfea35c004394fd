import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../app/catalog/index.js';
import { ERROR_CODES, EXIT, EXIT_MEANING, InputError, ManagedError } from '../../../../app/errors.js';
import { AnswerTooLargeError, ApiError, AuthError, CancelledError, CertificateError, ProtocolError, RedirectError, TransientHttpError, UnreachableError } from '../../../../main/client/index.js';
import { UnrecognisedAnswerError } from '../../../../main/client/answer.js';
import { toCliError } from '../../../../main/cli/errors.js';
import { runCli } from '../../../../main/cli/main.js';
import { LoginRequiredError, OutcomeUnknownError, SitePausedError } from '../../../../main/core/errors.js';
import { toIpcError } from '../../../../main/ipc/handlers.js';
import { ManifestChangedError } from '../../../../main/reports/manifest.js';
import { MonitorRunningError } from '../../../../main/monitor/lock.js';
import { KeychainError } from '../../../../main/secrets/secret-store.js';
import { StoreError } from '../../../../main/store/store-error.js';

/** One instance of every error class Fleetdeck raises, with the exit status and IPC code it must get. */
const CASES: Array<[Error, number, string]> = [
  [new InputError('a site named "paris" already exists', 'conflict'), 2, 'conflict'],
  [new InputError('"x": not a URL'), 2, 'validation'],
  [new InputError('no site named "x"', 'not-found'), 2, 'not-found'],
  [new ValidationError('POST /hosts/create', ['Name: required']), 2, 'validation'],
  [new SitePausedError('paris is paused'), 2, 'paused'],
  [new ApiError('Name already exists'), 1, 'api'],
  [new ManifestChangedError('manifest.json was changed'), 1, 'validation'],
  [new AuthError('bad token'), 6, 'auth'],
  [new LoginRequiredError('no password stored'), 6, 'login-required'],
  [new UnreachableError('connection refused', 'ECONNREFUSED'), 3, 'unreachable'],
  [new TransientHttpError('503 from a proxy', 503, undefined), 3, 'unreachable'],
  [new ProtocolError('not JSON'), 4, 'protocol'],
  [new UnrecognisedAnswerError('GET /hosts/list', '{"items": [3 objects]}', 'a list', 'paris'), 4, 'protocol'],
  [new AnswerTooLargeError('over 32 MiB', 32), 4, 'protocol'],
  [new RedirectError('302 to elsewhere', 'https://elsewhere'), 4, 'protocol'],
  [new CertificateError('not trusted'), 5, 'certificate'],
  [new StoreError('cannot open actions.db', '/d/actions.db', 'damaged'), 7, 'store'],
  [new KeychainError('the keychain is locked', 'locked'), 8, 'keychain'],
  [new OutcomeUnknownError('POST /hosts/create timed out'), 9, 'outcome-unknown'],
  [new CancelledError(), 10, 'cancelled'],
  [new MonitorRunningError({ pid: 42, host: 'h', user: 'u', since: '2026-01-01T00:00:00.000Z', version: '1.0.0' }, '/var/lib/fleetdeck'), 14, 'conflict'],
  [new ManagedError('adding a site is refused: read-only by the machine policy'), 15, 'managed'],
  [new TypeError("Cannot read properties of undefined (reading 'x')"), 11, 'internal'],
];

describe('every error class goes through the one table', () => {
  it.each(CASES)('%s exits %i and crosses IPC as %s', (err, exit, ipc) => {
    expect(toCliError(err).exitCode).toBe(exit);
    expect(toIpcError(err).code).toBe(ipc);
  });

  it('covers every code of the table with a class', () => {
    const seen = new Set(CASES.map(([err]) => ('code' in err && typeof err.code === 'string' ? err.code : 'internal')));
    expect([...seen].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('says what happened before the system\'s words where the table asks for it', () => {
    expect(toCliError(new ApiError('Name already exists')).message).toBe('the system refused: Name already exists');
    expect(toCliError(new AuthError('bad token')).message).toBe('not authorized: bad token');
    expect(toCliError(new InputError('a site named "paris" already exists', 'conflict')).message).toBe('a site named "paris" already exists');
  });
});

describe('fleetdeck --help', () => {
  it('lists every exit status of the table with its meaning', async () => {
    let out = '';
    const code = await runCli(['--help'], { stdout: (t) => (out += t), stderr: (t) => (out += t), readStdin: async () => '', env: {} });
    expect(code).toBe(EXIT.ok);
    for (const name of Object.keys(EXIT) as Array<keyof typeof EXIT>) expect(out).toContain(`${String(EXIT[name]).padStart(2)}  ${EXIT_MEANING[name]}`);
  });
});
