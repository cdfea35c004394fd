import { json, type Recorded, type Responder } from './recording-server.js';

/** The session token the hostile site hands out, and echoes back in its errors. */
export const HOSTILE_TOKEN = 'MARKER-HOSTILE-SESSION-TOKEN-93f1';

/** Terminal escapes a hostile system puts in its text: window title, clipboard (OSC 52), screen clear, a forged line, a right-to-left override. */
export const ESCAPES = '\u001b]0;pwned\u0007\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b[2K\rfleetdeck: all good \u202Eexe.txt\u009b31m';

/** Characters none of which may reach a terminal raw. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
export const UNSAFE_IN_TERMINAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * A storage endpoint as a hostile or broken one behaves: every read fails with a message full of
 * terminal escapes that also echoes the caller's session token; every write echoes its body (and so
 * the secrets in it) in a 400, or in a 200 message for `PUT /users/edit`; with `deep`, the system
 * list is JSON nested 100,000 levels deep; `spell` gives the spelling the echo of a write's body is
 * written in (upper case, URL-encoded, base64 …; as sent when absent).
 */
export function hostileSite(options: { deep?: boolean; spell?: () => (text: string) => string } = {}): Responder {
  return (req: Recorded, res) => {
    const spell = options.spell?.() ?? ((text: string) => text);
    const path = req.url.split('?')[0] ?? '';
    if (path.endsWith('/login')) return json(res, 200, { SessionToken: HOSTILE_TOKEN, Status: 'Ok', UserEmailAddress: '', Details: '' });
    if (path.endsWith('/systems/select')) return json(res, 200, 'selected');
    if (path.endsWith('/systems/list')) {
      if (options.deep) {
        const body = `${'{"Systems":['.repeat(100_000)}${']}'.repeat(100_000)}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        return res.end(body);
      }
      return json(res, 200, { Systems: [{ Name: 'alpha' }] });
    }
    if (path.endsWith('/users/edit')) return json(res, 200, `user updated: ${spell(req.body)}`);
    if (req.method !== 'GET') return json(res, 400, `${ESCAPES} refused ${spell(req.body)}`);
    return json(res, 400, `${ESCAPES} your session ${req.headers.authorization ?? ''} is not allowed to read this`);
  };
}
