import { describe, expect, it } from 'vitest';
import { REDACTED, maskAnswerSecrets, maskMentionedSecrets, mentionsSecret } from '../../../app/redact.js';

const token = 'Tk9-session-4f1c2a7b';
const password = 'fleetdeck-demo';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** Masking with each list in turn, as a caller without {@link maskAnswerSecrets} would. */
const inTurn = <T>(value: T, sent: readonly string[], unsent: readonly string[]): T => maskMentionedSecrets(maskMentionedSecrets(value, sent), unsent, true);

describe('maskAnswerSecrets', () => {
  it('gives the answer itself when it mentions neither what was sent nor the site secrets', () => {
    const answer = { Message: 'fine', Items: [{ Detail: 'com.fleetdeck:target 100% & more', Size: 4096 }] };
    expect(maskAnswerSecrets(answer, [token], [password])).toBe(answer);
    expect(maskAnswerSecrets(answer, [], [])).toBe(answer);
  });

  it('masks as masking with each list in turn does: a piece of what was sent, only the whole of a site secret', () => {
    const answers = [
      { Message: `session ${token} opened` },
      { Message: `token starts ${token.slice(0, 10)}` },
      { Message: `login failed with password ${password}` },
      { Message: `login failed with password ${password.toUpperCase()}`, Iqn: 'iqn.2024-01.com.fleetdeck:t1' },
      { Message: `prefix only: ${password.slice(0, 9)}` },
      { Items: [{ A: `both ${token}` }, { B: `and ${password}` }] },
      { Items: [{ A: `encoded ${b64(`Bearer ${token}`)}` }, { B: encodeURIComponent(password) }] },
    ];
    for (const answer of answers) {
      const copy = structuredClone(answer);
      const masked = maskAnswerSecrets(answer, [token], [password]);
      expect(masked, JSON.stringify(answer)).toEqual(inTurn(answer, [token], [password]));
      expect(answer, 'the answer given is not changed').toEqual(copy);
    }
    expect(maskAnswerSecrets({ M: `token starts ${token.slice(0, 10)}` }, [token], [password])).toEqual({ M: `token starts ${REDACTED}` });
    // A piece of what was sent that holds none of its first characters.
    expect(maskAnswerSecrets({ M: `token ends ${token.slice(6)}` }, [token], [password])).toEqual({ M: `token ends ss${REDACTED}` });
    expect(maskAnswerSecrets({ M: `prefix only: ${password.slice(0, 9)}` }, [token], [password])).toEqual({ M: `prefix only: ${password.slice(0, 9)}` });
    expect(maskAnswerSecrets({ A: `both ${token}`, B: `and ${password}` }, [token], [password])).toEqual({ A: `both ${REDACTED}`, B: `and ${REDACTED}` });
  });

  it('masks a site secret with nothing sent, and what was sent with no site secret', () => {
    expect(maskAnswerSecrets({ M: `pw ${password}` }, [], [password])).toEqual({ M: `pw ${REDACTED}` });
    expect(maskAnswerSecrets({ M: `tok ${token}` }, [token], [])).toEqual({ M: `tok ${REDACTED}` });
  });

  it('looks for the site secrets in what masking the sent ones left', () => {
    // The site secret holds the sent one: masking the sent one first leaves no whole site secret.
    const unsent = `pre-${token}-post`;
    const answer = { M: `echo ${unsent}` };
    expect(maskAnswerSecrets(answer, [token], [unsent])).toEqual(inTurn(answer, [token], [unsent]));
    expect(maskAnswerSecrets(answer, [token], [unsent])).toEqual({ M: `echo pre-${REDACTED}-post` });
  });

  it('reads the answer’s strings once for both lists when neither is mentioned', () => {
    let reads = 0;
    const answer = {
      get Detail(): string {
        reads++;
        return 'nothing secret here';
      },
    };
    expect(maskAnswerSecrets(answer, [token], [password])).toBe(answer);
    expect(reads).toBe(1);
  });

  it('masks a site secret only whole, in every plain spelling, and leaves text that only begins like it', () => {
    const secret = 'Fleetdeck demo/pass+1';
    const echoes = [
      secret,
      secret.toUpperCase(),
      secret.replaceAll(' ', '+'),
      Buffer.from(secret, 'utf8').toString('hex'),
      Buffer.from(secret, 'utf8').toString('hex').toUpperCase(),
      // Base64 of a body holding it at each byte offset, standard and URL-safe.
      ...['', 'x', 'xy'].map((before) => Buffer.from(`${before}${secret}`, 'utf8').toString('base64')),
      Buffer.from(`xy${secret}`, 'utf8').toString('base64url'),
    ];
    for (const echo of echoes) {
      const masked = maskAnswerSecrets({ M: `said ${echo} here` }, [token], [secret]);
      expect(masked.M, echo).toContain(REDACTED);
      expect(masked.M.toLowerCase(), echo).not.toContain(echo.toLowerCase());
    }
    // Its first characters, or all but its last, in ordinary text: no secret there.
    for (const text of ['fleetdeck demo host', 'FLEETDECK DEMO/PASS+', `${Buffer.from(secret.slice(0, -1), 'utf8').toString('hex')}`]) {
      const answer = { M: text };
      expect(maskAnswerSecrets(answer, [token], [secret])).toBe(answer);
    }
  });

  it('looks into a value with a cycle or shared objects, and masks what it holds', () => {
    const cyclic: Record<string, unknown> = { M: `tok ${token}` };
    cyclic.self = cyclic;
    const masked = maskAnswerSecrets(cyclic, [token], [password]) as Record<string, unknown>;
    expect(masked.M).toBe(`tok ${REDACTED}`);
    const shared = { S: `pw ${password}` };
    const answer = { Items: [shared, shared, { Deep: [shared] }] };
    expect(JSON.stringify(maskAnswerSecrets(answer, [token], [password]))).not.toContain(password);
    // Nothing secret in a cycle: the value itself.
    const quiet: Record<string, unknown> = { M: 'nothing secret' };
    quiet.self = quiet;
    expect(maskAnswerSecrets(quiet, [token], [password])).toBe(quiet);
  });

  it('masks the site secret a token is paired with now, not the one it was paired with before', () => {
    const other = 'another-site-password';
    expect(maskAnswerSecrets({ M: `pw ${password}` }, [token], [password])).toEqual({ M: `pw ${REDACTED}` });
    expect(maskAnswerSecrets({ M: `pw ${other}` }, [token], [other])).toEqual({ M: `pw ${REDACTED}` });
    // The first site's password is no secret of the second site's answers: left as it is.
    expect(maskAnswerSecrets({ M: `pw ${password}` }, [token], [other])).toEqual({ M: `pw ${password}` });
    expect(maskAnswerSecrets({ M: `pw ${password}` }, [token], [password])).toEqual({ M: `pw ${REDACTED}` });
  });

  it('masks every list as its own, whatever lists were masked before (one secret, several, the same text masked whole or not)', () => {
    // Past the bound of the probes kept: the first ones are made again, not mistaken for others.
    const tokenOf = (i: number): string => `token-${i.toString(36).padStart(6, '0')}`;
    const plain = { M: 'nothing secret' };
    for (let i = 0; i < 5000; i++) {
      expect(maskAnswerSecrets(plain, [tokenOf(i)], [password])).toBe(plain);
      // Now and then, one kept or one forgotten.
      if (i % 997 === 0) for (const j of [0, i, Math.floor(i / 2)]) expect(maskAnswerSecrets({ M: `tok ${tokenOf(j)}` }, [tokenOf(j)], [password])).toEqual({ M: `tok ${REDACTED}` });
    }
    // A secret masked whole keeps its prefix: the same text sent is masked from its first 8 characters.
    const prefix = { M: `cut ${token.slice(0, 10)}` };
    expect(maskAnswerSecrets(prefix, [], [token])).toBe(prefix);
    expect(maskAnswerSecrets(prefix, [token], [])).toEqual({ M: `cut ${REDACTED}` });
    // A list of one and a list of two holding it are not one list.
    const both = { M: `a ${token} b ${password}` };
    expect(maskAnswerSecrets(both, [token], [])).toEqual({ M: `a ${REDACTED} b ${password}` });
    expect(maskAnswerSecrets(both, [token, password], [])).toEqual({ M: `a ${REDACTED} b ${REDACTED}` });
    expect(maskAnswerSecrets({ M: `a ${token.slice(0, 10)}` }, [], [token, password])).toEqual({ M: `a ${token.slice(0, 10)}` });
  });
});

describe('the quick look for a secret, with characters patterns give a meaning', () => {
  it('finds a secret holding every character a pattern gives a meaning, plain and in any case', () => {
    const secret = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p-q';
    for (const text of [`x ${secret} y`, `x ${secret.toUpperCase()} y`, `x ${secret.slice(0, 12)}`]) expect(mentionsSecret(text, [secret]), text).toBe(true);
    expect(mentionsSecret('a-b-c-d-e-f-g-h-i-j-k', [secret])).toBe(false);
  });

  it('finds base64 whose first characters hold + or /', () => {
    for (const secret of ['>>>>>>>>>>>>', '?>?>?>?>?>?>']) {
      const encoded = b64(secret);
      expect(encoded.slice(0, 11), secret).toMatch(/[+/]/);
      expect(mentionsSecret(`echo ${encoded}`, [secret]), secret).toBe(true);
      expect(mentionsSecret(`echo ${encoded}`, [secret], true), secret).toBe(true);
    }
  });
});
