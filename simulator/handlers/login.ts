import { randomBytes } from 'node:crypto';
import type { AuthenticationResult } from '../../app/catalog/resources.js';
import { fail, unauthorized } from '../errors.js';
import { sameName } from '../state/lookup.js';
import type { SystemState } from '../state/model.js';
import { LEVEL } from '../state/notifications.js';
import { verifyTotp } from '../totp.js';
import { EMPTY } from './context.js';
import type { HandlerMap } from './context.js';

/** Sessions kept per site; beyond this the least recently created is dropped (bounds memory under load tests). */
const MAX_SESSIONS = 20_000;

/** Login Status as a number (dialect numeric-status): 0 for Ok, as an enumeration serialised by value. */
const NUMERIC_STATUS = { Ok: 0, TwoFactorRequired: 2 } as const;

/** How long an accepted code stays refused (dialect mfa-401): the verifier's whole window of three steps. */
const CODE_WINDOW_MS = 90_000;

export const loginHandlers: HandlerMap = {
  'POST /login': (ctx) => {
    const name = ctx.body.str('Username');
    const password = ctx.body.str('Password');
    const user = ctx.site.users.find((u) => sameName(u.name, name));
    if (!user || password === undefined || user.password !== password) {
      ctx.notify({ level: LEVEL.warning, module: 'Authentication', message: `Failed login for user '${name ?? ''}'.` });
      unauthorized('Invalid username or password.');
    }
    const minutes = ctx.body.int('InactivityTimeoutInMinutes') ?? 30;
    if (minutes < 1 || minutes > 1440) fail('InactivityTimeoutInMinutes must be between 1 and 1440.');
    const dialects = ctx.fleet.dialects;
    // Status as the document samples it, or as a number (dialect numeric-status).
    // The catalog types Status as text; this dialect sends a number in its place.
    const status = (text: 'Ok' | 'TwoFactorRequired'): string => (dialects.has('numeric-status') ? NUMERIC_STATUS[text] : text) as unknown as string;
    if (ctx.site.multifactor) {
      const code = ctx.body.str('TwoFactorAuthenticationToken');
      const once = dialects.has('mfa-401');
      if (!code) {
        if (once) unauthorized('Multifactor authentication required: enter the one-time password (OTP) from your authenticator app.');
        const pending: AuthenticationResult = {
          UserEmailAddress: user.email,
          Status: status('TwoFactorRequired'),
          Details: dialects.has('numeric-status')
            ? 'Two-step verification is on: enter the verification code from your authenticator app.'
            : 'Two-factor authentication is enabled: send TwoFactorAuthenticationToken with the 6-digit code from your authenticator app.',
        };
        return pending;
      }
      const reused = once && user.lastCode?.code === code.trim() && ctx.nowMs - user.lastCode.atMs < CODE_WINDOW_MS;
      if (reused || !verifyTotp(user.totpSecret, code, ctx.nowMs)) {
        ctx.notify({ level: LEVEL.warning, module: 'Authentication', message: `${reused ? 'Reused' : 'Wrong'} two-factor code for user '${user.name}'.` });
        unauthorized(once ? 'Invalid verification code.' : 'Invalid two-factor authentication code.');
      }
      if (once) user.lastCode = { code: code.trim(), atMs: ctx.nowMs };
    }
    const token = randomBytes(32).toString('base64url');
    const sessions = ctx.site.sessions;
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    // Dialect shared-selection: a new session starts where the user's other sessions are.
    const shared = ctx.fleet.dialects.has('shared-selection') ? [...sessions.values()].find((s) => s.user === user.name) : undefined;
    sessions.set(token, { token, user: user.name, systemId: shared?.systemId ?? (ctx.site.systems[0] as SystemState).id, lastSeenMs: ctx.nowMs, timeoutMs: minutes * 60_000 });
    ctx.notify({ level: LEVEL.info, module: 'Authentication', message: `User '${user.name}' logged in.` });
    const result: AuthenticationResult = { SessionToken: token, UserEmailAddress: user.email, Status: status('Ok'), Details: `Logged in as ${user.name} (${user.role}).` };
    return result;
  },

  'POST /resetpassword': (ctx) => {
    // Answers the same whether or not the user exists, so the endpoint reveals nothing.
    const name = ctx.body.str('Username') ?? '';
    const user = ctx.site.users.find((u) => sameName(u.name, name));
    if (user && sameName(user.email, ctx.body.str('Email'))) {
      ctx.notify({ level: LEVEL.info, module: 'Authentication', message: `Password reset requested for user '${user.name}'; instructions sent by e-mail.` });
    }
    ctx.audited = true;
    return EMPTY;
  },
};
