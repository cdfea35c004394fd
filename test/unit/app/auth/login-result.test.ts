import { describe, expect, it } from 'vitest';
import { asksForSecondFactor, interpretLogin, isSuccessStatus, saysSessionEnded } from '../../../../app/auth/login-result.js';

describe('login Status', () => {
  it('takes "Ok" in any case, and 0 (the enumeration serialised by value), as success', () => {
    for (const s of ['Ok', 'OK', 'ok', ' oK ', 'Success', 'succeeded', 0, '0']) expect(isSuccessStatus(s), String(s)).toBe(true);
  });

  it('takes no other number, nor missing or odd values, as success', () => {
    for (const s of [1, 2, -1, '2', 200, null, undefined, true, 'Okay', 'Failed', 'TwoFactorRequired']) expect(isSuccessStatus(s), String(s)).toBe(false);
  });

  it('reads a numeric success with its token as a session (the old code compared with "Ok" only)', () => {
    expect(interpretLogin({ SessionToken: 'tok-1', Status: 0 })).toEqual({ kind: 'ok', token: 'tok-1' });
    expect(interpretLogin({ SessionToken: 'tok-2', Status: 'OK' })).toEqual({ kind: 'ok', token: 'tok-2' });
  });

  it('does not call a success without a token a session, and says what came back', () => {
    expect(interpretLogin({ Status: 'Ok' })).toEqual({ kind: 'incomplete', message: 'the login answered Ok but no session token' });
    expect(interpretLogin({ Status: 7, Details: 'Account locked' })).toEqual({ kind: 'incomplete', message: 'status 7: Account locked' });
    expect(interpretLogin('not an object')).toMatchObject({ kind: 'incomplete', message: 'status no status' });
  });
});

describe('second-factor prompts', () => {
  const asking = [
    'Two-factor authentication is enabled',
    'TwoFactorRequired',
    '2FA code required',
    'Two-step verification is on: enter the verification code from your authenticator app.',
    '2-step verification required',
    'Multifactor authentication required',
    'Multi-factor authentication required',
    'MfaRequired',
    'MFA_REQUIRED',
    'OTPRequired',
    'Enter the one-time password (OTP) from your authenticator app.',
    'One-time code missing',
    'Invalid verification code.',
    'Open your authenticator',
    'TOTP token missing',
    'Security code required',
    'Enter the SMS code',
    'Code required',
  ];
  it.each(asking)('recognises "%s"', (text) => {
    expect(asksForSecondFactor(text)).toBe(true);
  });

  const notAsking = ['Invalid username or password.', 'Invalid or expired session token.', 'The account is locked', 'Error code 17', 'Network unreachable', 'otpauth is not configured here', ''];
  it.each(notAsking)('does not take "%s" for one', (text) => {
    expect(asksForSecondFactor(text)).toBe(false);
  });

  it('finds the request on a 200 answer in its Status or its Details, numeric status included', () => {
    expect(interpretLogin({ Status: 'MfaRequired' })).toEqual({ kind: 'second-factor', message: 'MfaRequired' });
    expect(interpretLogin({ Status: 2, Details: 'Two-step verification is on: enter the verification code.' })).toEqual({
      kind: 'second-factor',
      message: 'Two-step verification is on: enter the verification code.',
    });
  });
});

describe('a refusal that says the session ended', () => {
  it('reads the usual wordings, any case, camelCase and snake_case', () => {
    for (const t of [
      'Session expired. Please log in again.',
      'Your session has expired',
      'Session timed out after 30 minutes of inactivity',
      'Session timeout',
      'The session is no longer valid.',
      'Invalid or expired session token.',
      'Token expired',
      'The access token has expired',
      'jwt expired',
      'Invalid token',
      'Unknown session',
      'SessionExpired',
      'SESSION_EXPIRED',
      'Login Time-out',
      'You are not logged in.',
      'Please sign in again',
      'Re-authenticate to continue',
      'Session was revoked by an administrator',
    ]) expect(saysSessionEnded(t), t).toBe(true);
  });

  it('does not take a refusal of the operation, or other expiries, for one', () => {
    for (const t of [
      "Permission denied: user 'ops' has role Viewer, which may only read.",
      'You are not authorized to delete this volume.',
      "Host 'h1' already exists.",
      'The license expired on 2026-01-01.',
      'Certificate expired',
      "Snapshot retention of 'db' expired copies were deleted.",
      'Login failed',
      '',
      undefined,
    ]) expect(saysSessionEnded(t), String(t)).toBe(false);
  });
});
