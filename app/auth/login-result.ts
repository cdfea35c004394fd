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
  return SECOND_FACTOR.test(splitWords(text));
}

const SECOND_FACTOR =
  /\b(two|2)[\s-]?(factor|step)|\b2fa\b|\bmulti[\s-]?factor|\bmfa\b|\b(t?otp)\b|\bone[\s-]?time[\s-]?(pass|code|token)|\bverification[\s-]?code|\bauthenticator\b|\bsecurity[\s-]?code|\b(sms|e-?mail(ed)?)[\s-]?code|\bcode[\s-]?(is[\s-]?)?required/i;

/**
 * Whether a refusal says the session itself ended, in the usual words whatever its status: a
 * session, token, JWT or login that expired, timed out, is no longer valid, was revoked or ended;
 * an expired, invalid or unknown session or token; not logged in; log in again; re-authenticate.
 * A refusal of the operation itself (permission denied, not authorized to do X) is not one.
 */
export function saysSessionEnded(text: string | undefined): boolean {
  if (!text) return false;
  return SESSION_ENDED.test(splitWords(text));
}

const SESSION_ENDED =
  /\b(session|token|jwt|login)s?\b[^.;:!?]{0,40}?\b(expired?|timed[\s-]?out|time[\s-]?out|no[\s-]?longer[\s-]?(valid|active)|(is|was|has[\s-]?been)[\s-]?(invalid|not[\s-]?valid|unknown|revoked|terminated|closed|ended|logged[\s-]?out))\b|\b(expired|invalid|unknown|revoked|stale)[\s-]+(login[\s-]+)?(session|jwt|(access[\s-]|auth[\s-]|bearer[\s-]|session[\s-])?token)\b|\bnot[\s-]?(logged|signed)[\s-]?in\b|\b(log|sign)[\s-]?in[\s-]+again\b|\bre-?(login|authenticate)\b/i;

/** CamelCase and snake_case split into words (`MfaRequired`, `SESSION_EXPIRED`). */
function splitWords(text: string): string {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/_/g, ' ');
}

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
