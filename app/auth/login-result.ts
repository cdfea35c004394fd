/**
 * What a login answer means. The document shows one sample (`Status: "Ok"`) and a plain-string 401
 * on failure; real systems spell the status in another case, send the enumeration's number, and
 * word the request for a second factor in many ways, on a 200 answer or on the 401 itself.
 * `docs/assumptions.md` lists these decisions.
 */

/** The outcome of one `POST /login` answer (200). */
export type LoginOutcome =
  | { kind: 'ok'; token: string }
  /** The system wants a second factor (a code from an authenticator). */
  | { kind: 'second-factor'; message: string }
  /** Anything else: no token, or a status that is not success. */
  | { kind: 'incomplete'; message: string };

/**
 * Status values that mean success: "Ok" in any case (and "success"/"succeeded"), and 0, the value
 * of an enumeration's first member when it is serialised as a number (the document's sample "Ok"
 * reads as the default, first member). Any other number is not success: its meaning is unknown.
 */
export function isSuccessStatus(status: unknown): boolean {
  if (typeof status === 'number') return status === 0;
  if (typeof status !== 'string') return false;
  const s = status.trim().toLowerCase();
  return s === 'ok' || s === '0' || s === 'success' || s === 'succeeded';
}

/**
 * Whether a text asks for a second factor: two-factor / 2FA, two-step, multi-factor / MFA, OTP /
 * TOTP / one-time password or code, verification code, authenticator, security code, SMS or e-mail
 * code, "code required". CamelCase and snake_case words (`MfaRequired`, `MFA_REQUIRED`) are split
 * first.
 */
export function asksForSecondFactor(text: string | undefined): boolean {
  if (!text) return false;
  const words = text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/_/g, ' ');
  return SECOND_FACTOR.test(words);
}

const SECOND_FACTOR =
  /\b(two|2)[\s-]?(factor|step)|\b2fa\b|\bmulti[\s-]?factor|\bmfa\b|\b(t?otp)\b|\bone[\s-]?time[\s-]?(pass|code|token)|\bverification[\s-]?code|\bauthenticator\b|\bsecurity[\s-]?code|\b(sms|e-?mail(ed)?)[\s-]?code|\bcode[\s-]?(is[\s-]?)?required/i;

/** Reads a 200 login answer: a session, a request for a second factor, or a login that did not complete. */
export function interpretLogin(result: unknown): LoginOutcome {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const status = r['Status'];
  const details = typeof r['Details'] === 'string' ? r['Details'] : undefined;
  const token = typeof r['SessionToken'] === 'string' && r['SessionToken'] !== '' ? r['SessionToken'] : undefined;
  const statusText = status === undefined || status === null ? 'no status' : String(status);
  if (isSuccessStatus(status) && token) return { kind: 'ok', token };
  if (asksForSecondFactor(`${typeof status === 'string' ? status : ''} ${details ?? ''}`)) {
    return { kind: 'second-factor', message: details ?? statusText };
  }
  if (isSuccessStatus(status)) return { kind: 'incomplete', message: `the login answered ${statusText} but no session token` };
  return { kind: 'incomplete', message: `status ${statusText}${details ? `: ${details}` : ''}` };
}
