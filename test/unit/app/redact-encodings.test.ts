import { describe, expect, it } from 'vitest';
import { REDACTED, maskMentionedSecrets, maskSecrets, mentionsSecret, redact, redactedJson, secretPattern, secretValues } from '../../../app/redact.js';

/** Every byte of the text's UTF-8 as %XX, as a proxy URL-encodes a body (lone surrogates as U+FFFD). */
const percent = (text: string): string => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe('UTF-8 of a secret at every width boundary', () => {
  // The last and first code point of each UTF-8 width, and the edges of the surrogate range.
  const edges: Record<string, string> = {
    'U+007F/U+0080': 'ab\u007f\u0080cdefgh',
    'U+07FF/U+0800': 'ab\u07ff\u0800cdefgh',
    'U+D7FF/U+E000': 'ab\ud7ff\ue000cdefgh',
    'U+FFFF/U+10000': 'ab\uffff\u{10000}cdefgh',
    'U+10FFFF': 'ab\u{10ffff}cdefgh',
    'lone surrogates U+D800, U+DFFF': 'ab\ud800x\udfffcdefgh',
  };
  for (const [name, secret] of Object.entries(edges)) {
    it(`masks the URL-encoded and base64 echoes of a secret with ${name}`, () => {
      expect(maskSecrets(`q=${percent(secret)}&x=1`, [secret]), 'url').toBe(`q=${REDACTED}&x=1`);
      expect(maskSecrets(`b=${b64(secret)}`, [secret]), 'base64').toMatch(/^b=\[redacted\][A-Za-z0-9+/]?=*$/);
      expect(mentionsSecret(`b=${b64(secret)}`, [secret])).toBe(true);
    });
  }

  it('does not mask the UTF-8 of a neighbouring code point', () => {
    expect(maskSecrets(percent('ab\u0080cdefgh'), ['ab\u0081cdefgh'])).toBe(percent('ab\u0080cdefgh'));
    expect(maskSecrets(b64('ab\u0800cdefgh'), ['ab\u0801cdefgh'])).not.toContain(REDACTED);
  });
});

describe('secretPattern', () => {
  it('is null when no secret is long enough, and masks the same secret given twice once', () => {
    expect(secretPattern([])).toBeNull();
    expect(secretPattern(['abc', ''])).toBeNull();
    expect(secretPattern(['abcd'])).toBeInstanceOf(RegExp);
    // By default a sent secret's prefix is found too; whole, only the whole secret.
    expect(secretPattern(['abcdefghijkl'])?.test('x abcdefgh y')).toBe(true);
    expect(secretPattern(['abcdefghijkl'], true)?.test('x abcdefgh y')).toBe(false);
    expect(maskSecrets('x abcd-1234 y', ['abcd-1234', 'abcd-1234'])).toBe(`x ${REDACTED} y`);
  });

  it('masks a secret of exactly four characters, and leaves three alone', () => {
    expect(maskSecrets('pin wxyz', ['wxyz'])).toBe(`pin ${REDACTED}`);
    expect(maskSecrets('pin wxy', ['wxy'])).toBe('pin wxy');
    expect(mentionsSecret('pin wxyz', ['wxyz'])).toBe(true);
    expect(mentionsSecret('pin wxy', ['wxy'])).toBe(false);
  });

  it('masks base64 of exactly 8 characters of the secret’s own, and not 7', () => {
    // 6 bytes at offset 0 make 8 characters that depend on them alone.
    expect(maskSecrets(`x ${b64('k9Qz7w')} y`, ['k9Qz7w'])).toBe(`x ${REDACTED} y`);
  });

  it('masks base64 cut short at 11 characters, not at 10', () => {
    const secret = 'Zq8#Lm2!Vx9$Rt';
    const run = b64(secret);
    expect(maskSecrets(`x ${run.slice(0, 11)} y`, [secret])).toBe(`x ${REDACTED} y`);
    expect(maskSecrets(`x ${run.slice(0, 10)} y`, [secret])).toBe(`x ${run.slice(0, 10)} y`);
  });

  it('masks base64 whose + and / are URL- or JSON-escaped, and its URL-safe form', () => {
    const secret = '>>>?>>>?>>>?';
    const run = b64(secret);
    expect(run).toMatch(/[+/]/);
    expect(maskSecrets(`x ${run.replace(/\+/g, '%2B').replace(/\//g, '%2F')} y`, [secret])).toMatch(/^x \[redacted\]\S{0,4} y$/);
    expect(maskSecrets(`x ${run.replace(/\//g, '\\/')} y`, [secret])).toMatch(/^x \[redacted\]\S{0,4} y$/);
    expect(maskSecrets(`x ${run.replace(/\//g, '\\u002F')} y`, [secret])).toMatch(/^x \[redacted\]\S{0,6} y$/);
    expect(maskSecrets(`x ${Buffer.from(secret).toString('base64url')} y`, [secret])).toMatch(/^x \[redacted\]\S? y$/);
  });

  it('treats the characters that mean something in a pattern as themselves', () => {
    const secret = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p-q';
    expect(maskSecrets(`said ${secret}`, [secret])).toBe(`said ${REDACTED}`);
    expect(maskSecrets('said aXb*c+d?e^f$g{h}i(j)k|l[m]n\\o/p-q', [secret])).not.toBe(`said ${REDACTED}`);
    expect(maskSecrets('said a.bbbbbbbbbbbb', [secret])).toBe('said a.bbbbbbbbbbbb');
  });

  it('masks a secret whose letters have no case, or change length in upper case, as written', () => {
    for (const secret of ['straße-1234', 'ǆemal-1234', '12345678']) {
      expect(maskSecrets(`x ${secret} y`, [secret]), secret).toBe(`x ${REDACTED} y`);
    }
    expect(maskSecrets('x STRASSE-1234 y', ['straße-1234'])).toBe('x STRASSE-1234 y');
  });
});

describe('redact and its relatives at their edges', () => {
  it('keeps empty and absent secret fields as they are, so an admin sees no secret was set', () => {
    expect(redact({ Password: '', Token: null, Secret: undefined, ChapSecret: 0 })).toEqual({ Password: '', Token: null, Secret: undefined, ChapSecret: REDACTED });
    expect(redactedJson({ Password: '', Token: null, Secret: 'x' })).toBe('{"Password":"","Token":null,"Secret":"[redacted]"}');
  });

  it('does not take an array element for a field, whatever its index', () => {
    expect(redactedJson({ Password: ['a', 'b'], list: ['password', 'token'] })).toBe('{"Password":"[redacted]","list":["password","token"]}');
  });

  it('masks literal secrets inside field names’ values but never the names themselves', () => {
    expect(redact({ note: 'key abcd-9876', 'abcd-9876': 'v' }, ['abcd-9876'])).toEqual({ note: `key ${REDACTED}`, 'abcd-9876': 'v' });
  });

  it('collects numbers and nested values under a secret field, not empty strings or other fields', () => {
    expect(secretValues({ Pin: 1, Password: 123456, Chap: { ChapSecret: ['s1-xx', ''], Name: 'n' }, Name: 'pw' }).sort()).toEqual(['123456', 's1-xx']);
    expect(secretValues(null)).toEqual([]);
    expect(secretValues('loose')).toEqual([]);
  });

  it('collects from a cyclic value without looping', () => {
    const a: Record<string, unknown> = { Password: 'cyc-pass-1' };
    a.self = a;
    expect(secretValues(a)).toEqual(['cyc-pass-1']);
  });

  it('leaves values as they are when no secret is long enough to mask', () => {
    const value = { a: 'abc' };
    expect(maskSecrets(value, ['abc'])).toBe(value);
  });
});

describe('redaction: copies and edges found by mutation', () => {
  it('returns a copy the caller may change and delete from', () => {
    const out = redact({ a: 1, Password: 'pw-12345', nested: { b: 2 } }) as Record<string, unknown>;
    out.a = 2;
    delete out.Password;
    (out.nested as Record<string, unknown>).b = 3;
    expect(out).toEqual({ a: 2, nested: { b: 3 } });
  });

  it('writes an undefined secret field as JSON.stringify does: not at all', () => {
    expect(redactedJson({ Password: undefined, Name: 'n' })).toBe('{"Name":"n"}');
    expect(redactedJson({ Password: undefined, Token: 'tok-1' })).toBe('{"Token":"[redacted]"}');
  });

  it('masks the base64 of a JSON-escaped secret inside a longer string', () => {
    const secret = 'ab"cdefgh12';
    const echoed = Buffer.from(JSON.stringify({ note: `was ${secret} then` })).toString('base64');
    expect(maskSecrets(`x ${echoed}`, [secret])).toContain(REDACTED);
    expect(mentionsSecret(`x ${echoed}`, [secret])).toBe(true);
    expect(maskMentionedSecrets({ Note: `x ${echoed}` }, [secret])).toEqual(maskSecrets({ Note: `x ${echoed}` }, [secret]));
  });

  it('masks a secret holding a control character echoed with JSON’s short escape', () => {
    for (const c of ['\b', '\f', '\n', '\r', '\t']) {
      const secret = `k9${c}-secret-x`;
      expect(maskSecrets(`said ${JSON.stringify(secret)}.`, [secret]), JSON.stringify(c)).toBe(`said "${REDACTED}".`);
    }
  });

  it('masks URL-safe base64 whose secret-made characters include - and _', () => {
    for (const secret of ['?????????????', '>>>>>>>>>>>>']) {
      const safe = Buffer.from(secret).toString('base64url');
      expect(safe, secret).toMatch(/[-_]/);
      expect(maskSecrets(`x ${safe} y`, [secret]), secret).toMatch(/^x \[redacted\]\S? y$/);
      expect(mentionsSecret(`x ${safe} y`, [secret]), secret).toBe(true);
      expect(mentionsSecret(`x ${safe.slice(0, 12)} y`, [secret]), `${secret} cut`).toBe(true);
    }
  });

  it('answers that a text mentions any one of several secrets, cut-short base64 included', () => {
    expect(mentionsSecret('has abcd-1234 in it', ['zzzz-9999', 'abcd-1234'])).toBe(true);
    const secret = 'Qm9-secret-77';
    expect(mentionsSecret(`x ${Buffer.from(secret).toString('base64').slice(0, 12)}`, [secret])).toBe(true);
  });

  it('takes + for a space only, and no letter for another', () => {
    expect(maskSecrets('x ab+defgh y', ['abcdefgh'])).toBe('x ab+defgh y');
    expect(maskSecrets('x ab+defgh y', ['ab defgh'])).toBe(`x ${REDACTED} y`);
  });

  it('does not take one letter of a multi-letter case change for the letter', () => {
    expect(maskSecrets('x STRASE-1234 y', ['straße-1234'])).toBe('x STRASE-1234 y');
    // Eight characters: no later piece of the secret to mask on its own.
    expect(maskSecrets('x istanbul y', ['İstanbul'])).toBe('x istanbul y');
    expect(maskSecrets('x kistanbul y', ['kİstanbul'])).toBe('x kistanbul y');
    expect(maskSecrets('x İSTANBUL y', ['İstanbul'])).toBe(`x ${REDACTED} y`);
  });
});

describe('maskMentionedSecrets', () => {
  const token = 'Tk9-session-4f1c2a7b';

  it('gives the answer itself when none of its strings mentions a secret', () => {
    const answer = { Report: 'line 1\nline 2 100%\n& more\\', Drives: [{ Name: 'd1', Size: 4096 }] };
    expect(maskMentionedSecrets(answer, [token])).toBe(answer);
    expect(maskMentionedSecrets(answer, [])).toBe(answer);
  });

  it('masks a secret in any string as maskSecrets does, in every spelling it knows', () => {
    const percent = [...Buffer.from(token)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    for (const echoed of [token, token.toUpperCase(), percent, Buffer.from(`Bearer ${token}`).toString('base64'), `&#${token.charCodeAt(0)};${token.slice(1)}`]) {
      const answer = { Message: 'fine', Items: [{ Detail: `seen ${echoed} here` }] };
      const masked = maskMentionedSecrets(answer, ['abc', token]);
      expect(masked, echoed).toEqual(maskSecrets(answer, ['abc', token]));
      expect(JSON.stringify(masked), echoed).toContain(REDACTED);
      expect(answer.Items[0]?.Detail, 'the answer given is not changed').toContain(echoed);
    }
  });

  it('gives the answer itself when only a number, or strings taken together, spell a secret', () => {
    // Numbers are never masked, and each string is masked on its own.
    const answer = { Size: 12345678, Parts: ['abcd', 'efgh', 'abcd'] };
    expect(maskMentionedSecrets(answer, ['12345678'])).toBe(answer);
    expect(maskMentionedSecrets(answer, ['abcdefgh'])).toBe(answer);
  });

  it('finds a secret the answer wrote with JSON escapes, once parsed', () => {
    const text = `{"Message":"\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}${token.slice(1)}"}`;
    expect(maskMentionedSecrets(JSON.parse(text) as unknown, [token])).toEqual({ Message: REDACTED });
  });
});

describe('mentionsSecret on text with characters that only look like escapes', () => {
  const secret = 'Tk9-session-4f1c2a7b';
  const percent = [...Buffer.from(secret)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

  it('finds the secret beside a percentage, an ampersand or a plus that start no escape', () => {
    for (const text of [`100% used, ${secret}`, `R & D: ${secret.toUpperCase()}`, `a+b ${secret}`]) expect(mentionsSecret(text, [secret]), text).toBe(true);
    for (const text of ['100% used, nothing else', 'R & D only', 'a+b']) expect(mentionsSecret(text, [secret]), text).toBe(false);
  });

  it('finds a secret escaped from the text’s first character on', () => {
    const escapes = [percent, [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''), [...secret].map((c) => `&#${c.charCodeAt(0)};`).join('')];
    for (const text of escapes) {
      expect(mentionsSecret(text, [secret]), text).toBe(true);
      expect(maskMentionedSecrets({ Message: text }, [secret]), text).toEqual({ Message: REDACTED });
    }
  });

  it('finds every escaped spelling beside them', () => {
    for (const text of [`100% used, ${percent}`, `R & D: &#${secret.charCodeAt(0)};${secret.slice(1)}`, `path\\${secret}`]) expect(mentionsSecret(text, [secret]), text).toBe(true);
  });

  it('finds a secret whose spaces are written one as a space, one as a plus', () => {
    const spaced = 'ab cd ef gh';
    expect(mentionsSecret('x ab+cd ef+gh y', [spaced])).toBe(true);
    expect(maskSecrets('x ab+cd ef+gh y', [spaced])).toBe(`x ${REDACTED} y`);
  });
});

describe('the secret probes, as the masking rules need them', () => {
  it('finds a secret that starts with a space echoed with a plus first, in a text that also holds an escape', () => {
    const secret = ' pass-1234';
    expect(mentionsSecret('x%2Fy +pass-1234 z', [secret])).toBe(true);
    expect(maskSecrets('x%2Fy +pass-1234 z', [secret])).toBe(`x%2Fy ${REDACTED} z`);
  });

  it('finds a plain echo of a secret that holds no base64 run long enough to look for', () => {
    expect(mentionsSecret('he said !my secret pass', ['!my secret pass'])).toBe(true);
    // Its pluses written as pluses: the text's and the secret's both read as spaces.
    expect(mentionsSecret('x !a+b!c+d!e y', ['!a+b!c+d!e'])).toBe(true);
  });

  it('keeps apart two lists of secrets whose joined text is the same', () => {
    expect(mentionsSecret('x abcd y', ['abcdefgh1234'])).toBe(false);
    expect(mentionsSecret('x abcd y', ['abcd', 'efgh1234'])).toBe(true);
    expect(maskSecrets('x wxyz y', ['wxyz\u0000ijkl'])).toBe('x wxyz y');
    expect(maskSecrets('x wxyz y', ['wxyz', 'ijkl'])).toBe(`x ${REDACTED} y`);
  });

  it('keeps apart a secret masked whole and a sent list that starts with the word "whole"', () => {
    const password = 'site-pass-5150';
    expect(maskSecrets('said site-pass-9 and whole.', [password], true)).toBe('said site-pass-9 and whole.');
    expect(maskSecrets('said site-pass-9 and whole.', ['whole', password])).toBe(`said ${REDACTED}9 and ${REDACTED}.`);
  });

  it('finds a piece of a JSON-escaped secret that holds no escape itself, the cheap way too', () => {
    // The JSON text `ab\"cdefghijklmnopqrs` has a boundary at `g`, the secret itself at `h`.
    const secret = 'ab"cdefghijklmnopqrs';
    expect(maskSecrets('x ghijklmn y', [secret])).toBe(`x ${REDACTED} y`);
    expect(mentionsSecret('x ghijklmn y', [secret])).toBe(true);
    expect(maskMentionedSecrets({ Note: 'x ghijklmn y' }, [secret])).toEqual({ Note: `x ${REDACTED} y` });
  });

  it('walks an answer that holds nulls', () => {
    const answer = { A: null, B: [null, 'fine'], C: { D: null } };
    expect(maskMentionedSecrets(answer, ['Tk9-session-4f1c2a7b'])).toBe(answer);
    expect(maskMentionedSecrets({ A: null, B: 'seen Tk9-session-4f1c2a7b' }, ['Tk9-session-4f1c2a7b'])).toEqual({ A: null, B: `seen ${REDACTED}` });
  });
});

describe('pieces of a secret', () => {
  // 20 characters: runs start at 0, 8 and 12 (the last 8).
  const secret = 'abcdefghijklmnopqrst';

  it('masks a suffix of 8 characters or more, and not one of 7', () => {
    expect(maskSecrets('x mnopqrst y', [secret])).toBe(`x ${REDACTED} y`);
    expect(maskSecrets('x ijklmnopqrst y', [secret])).toBe(`x ${REDACTED} y`);
    expect(maskSecrets('x nopqrst y', [secret])).toBe('x nopqrst y');
    expect(mentionsSecret('x MNOPQRST y', [secret])).toBe(true);
    expect(mentionsSecret('x nopqrst y', [secret])).toBe(false);
  });

  it('masks a piece from its first 8-character boundary with 8 characters after it', () => {
    expect(maskSecrets('x hijklmnopqrs y', [secret])).toBe(`x h${REDACTED} y`);
    expect(maskSecrets('x IJKLMNOP y', [secret])).toBe(`x ${REDACTED} y`);
    // No boundary inside with 8 characters after it: left as it is.
    expect(maskSecrets('x efghijkl y', [secret])).toBe('x efghijkl y');
    expect(mentionsSecret('x efghijkl y', [secret])).toBe(false);
  });

  it('masks both halves of a secret split across two fields where each is 8 characters or more', () => {
    const split = { a: 'abcdefghij', b: 'klmnopqrst' };
    expect(maskMentionedSecrets(split, [secret])).toEqual({ a: REDACTED, b: `kl${REDACTED}` });
    expect(maskMentionedSecrets({ a: 'abcdefg', b: 'hijklmnopqrst' }, [secret])).toEqual({ a: 'abcdefg', b: `h${REDACTED}` });
  });

  it('finds a piece of a JSON-escaped secret as JSON writes it', () => {
    const quoted = 'ab"cdefgh\\ijklmnop';
    // From the 8th character of the JSON text of the secret on: `gh\\ijklmnop`.
    const piece = JSON.stringify(quoted).slice(9, -1);
    expect(piece).toBe('gh\\\\ijklmnop');
    expect(maskSecrets(`x ${piece} y`, [quoted])).toBe(`x ${REDACTED} y`);
    expect(mentionsSecret(`x ${piece} y`, [quoted])).toBe(true);
  });
});

describe('hex of a secret', () => {
  const secret = 'Chap/Secret+Echo=7d1';
  const hexOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

  it('masks the hex of a body holding it, in any case, and says it is mentioned', () => {
    const body = JSON.stringify({ Name: 'h1', ChapSecret: secret });
    for (const text of [hexOf(body), hexOf(body).toUpperCase(), hexOf(`x${body}`)]) {
      expect(maskSecrets(text, [secret]).toLowerCase()).not.toContain(hexOf(secret.slice(0, 8)));
      expect(maskSecrets(text, [secret])).toContain(REDACTED);
      expect(mentionsSecret(text, [secret])).toBe(true);
    }
  });

  it('masks hex cut short at 8 bytes of the secret, not at 7', () => {
    expect(maskSecrets(`x ${hexOf(secret.slice(0, 8))} y`, [secret])).toBe(`x ${REDACTED} y`);
    expect(maskSecrets(`x ${hexOf(secret.slice(0, 7))} y`, [secret])).toBe(`x ${hexOf(secret.slice(0, 7))} y`);
    expect(mentionsSecret(`x ${hexOf(secret.slice(0, 7))} y`, [secret])).toBe(false);
  });

  it('finds hex cut short at 8 bytes the cheap way too', () => {
    // A secret of its own: the probe of a list of secrets is built once, by the first test using it.
    const cut = 'Hex/Cut+Short=8b1';
    expect(mentionsSecret(`x ${hexOf(cut.slice(0, 8))} y`, [cut])).toBe(true);
    expect(maskMentionedSecrets({ Note: `x ${hexOf(cut.slice(0, 8))} y` }, [cut])).toEqual({ Note: `x ${REDACTED} y` });
  });

  it('masks the hex of a short secret whole, and of its UTF-8 bytes', () => {
    expect(maskSecrets(`x ${hexOf('wxyz')} y`, ['wxyz'])).toBe(`x ${REDACTED} y`);
    expect(maskSecrets(`x ${hexOf('été-1234')} y`, ['été-1234'])).toBe(`x ${REDACTED} y`);
  });
});

describe('byte escapes and named character references', () => {
  it('masks C and Python byte escapes of the UTF-8 bytes, also behind JSON escaping', () => {
    const secret = 'pässwort-geheim';
    const py = (text: string): string => [...Buffer.from(text, 'utf8')].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`)).join('');
    expect(py(secret)).toBe('p\\xc3\\xa4sswort-geheim');
    expect(maskSecrets(`b'${py(secret)}'`, [secret])).toBe(`b'${REDACTED}'`);
    expect(maskSecrets(`b'${py(secret).toUpperCase()}'`, [secret])).toBe(`b'${REDACTED}'`);
    expect(maskSecrets(JSON.stringify(`b'${py(secret)}'`), [secret])).toBe(`"b'${REDACTED}'"`);
    const all = [...Buffer.from(secret, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
    expect(maskSecrets(`x ${all} y`, [secret])).toBe(`x ${REDACTED} y`);
  });

  it('masks the named references of HTML 5 punctuation and HTML 4 Latin-1, Greek and typography', () => {
    const cases: Array<[string, string]> = [
      ['Chap/Secret+Echo=7d1', 'Chap&sol;Secret&plus;Echo&equals;7d1'],
      ['a[b]c\\d{e}f|g_h^i`j', 'a&lsqb;b&rbrack;c&bsol;d&lcub;e&rbrace;f&verbar;g&lowbar;h&Hat;i&grave;j'],
      ['x!y#z$w%v(u)t*s,r.q:p;o?n@m', 'x&excl;y&num;z&dollar;w&percnt;v&lpar;u&rpar;t&ast;s&comma;r&period;q&colon;p&semi;o&quest;n&commat;m'],
      ['pässwort-geheim', 'p&auml;sswort-geheim'],
      ['Ölfeld-Æther-ÿ1', '&Ouml;lfeld-&AElig;ther-&yuml;1'],
      ['αβγ-secret-ω', '&alpha;&beta;&gamma;-secret-&omega;'],
      ['price–€9…“ok”', 'price&ndash;&euro;9&hellip;&ldquo;ok&rdquo;'],
      ['Œuvre-™-ƒ-Ÿ-x', '&OElig;uvre-&trade;-&fnof;-&Yuml;-x'],
    ];
    for (const [secret, echoed] of cases) expect(maskSecrets(`said ${echoed}.`, [secret]), echoed).toBe(`said ${REDACTED}.`);
    // A name is matched in any case, as the secret's letters are.
    expect(maskSecrets('said P&AUML;SSWORT-GEHEIM.', ['pässwort-geheim'])).toBe(`said ${REDACTED}.`);
  });

  it('takes a name for its own character only', () => {
    expect(maskSecrets('said Chap&plus;Secret.', ['Chap/Secret'])).toBe('said Chap&plus;Secret.');
    expect(maskSecrets('said &beta;&alpha;-secret.', ['αβ-secret'])).toBe('said &beta;&alpha;-secret.');
    // U+03A2 has no name: the one after it (Sigma) is still Sigma.
    expect(maskSecrets('said x&Sigma;-secret.', ['xΣ-secret'])).toBe(`said ${REDACTED}.`);
    expect(maskSecrets('said x&Sigma;-secret.', ['xΡ-secret'])).toBe('said x&Sigma;-secret.');
  });
});

describe('every named character reference taken', () => {
  /** HTML's names (HTML 5 for ASCII punctuation, HTML 4 for the rest) as name=hex code point. */
  const NAMES = [
  'excl=21 quot=22 num=23 dollar=24 percnt=25 amp=26 apos=27 lpar=28 rpar=29 ast=2a midast=2a plus=2b comma=2c',
  'period=2e sol=2f colon=3a semi=3b lt=3c equals=3d gt=3e quest=3f commat=40 lsqb=5b lbrack=5b bsol=5c rsqb=5d',
  'rbrack=5d Hat=5e lowbar=5f UnderBar=5f grave=60 DiacriticalGrave=60 lcub=7b lbrace=7b verbar=7c vert=7c',
  'VerticalLine=7c rcub=7d rbrace=7d Tab=9 NewLine=a nbsp=a0 iexcl=a1 cent=a2 pound=a3 curren=a4 yen=a5',
  'brvbar=a6 sect=a7 uml=a8 copy=a9 ordf=aa laquo=ab not=ac shy=ad reg=ae macr=af deg=b0 plusmn=b1 sup2=b2',
  'sup3=b3 acute=b4 micro=b5 para=b6 middot=b7 cedil=b8 sup1=b9 ordm=ba raquo=bb frac14=bc frac12=bd frac34=be',
  'iquest=bf Agrave=c0 Aacute=c1 Acirc=c2 Atilde=c3 Auml=c4 Aring=c5 AElig=c6 Ccedil=c7 Egrave=c8 Eacute=c9',
  'Ecirc=ca Euml=cb Igrave=cc Iacute=cd Icirc=ce Iuml=cf ETH=d0 Ntilde=d1 Ograve=d2 Oacute=d3 Ocirc=d4 Otilde=d5',
  'Ouml=d6 times=d7 Oslash=d8 Ugrave=d9 Uacute=da Ucirc=db Uuml=dc Yacute=dd THORN=de szlig=df agrave=e0',
  'aacute=e1 acirc=e2 atilde=e3 auml=e4 aring=e5 aelig=e6 ccedil=e7 egrave=e8 eacute=e9 ecirc=ea euml=eb',
  'igrave=ec iacute=ed icirc=ee iuml=ef eth=f0 ntilde=f1 ograve=f2 oacute=f3 ocirc=f4 otilde=f5 ouml=f6',
  'divide=f7 oslash=f8 ugrave=f9 uacute=fa ucirc=fb uuml=fc yacute=fd thorn=fe yuml=ff Alpha=391 Beta=392',
  'Gamma=393 Delta=394 Epsilon=395 Zeta=396 Eta=397 Theta=398 Iota=399 Kappa=39a Lambda=39b Mu=39c Nu=39d Xi=39e',
  'Omicron=39f Pi=3a0 Rho=3a1 Sigma=3a3 Tau=3a4 Upsilon=3a5 Phi=3a6 Chi=3a7 Psi=3a8 Omega=3a9 alpha=3b1 beta=3b2',
  'gamma=3b3 delta=3b4 epsilon=3b5 zeta=3b6 eta=3b7 theta=3b8 iota=3b9 kappa=3ba lambda=3bb mu=3bc nu=3bd xi=3be',
  'omicron=3bf pi=3c0 rho=3c1 sigmaf=3c2 sigma=3c3 tau=3c4 upsilon=3c5 phi=3c6 chi=3c7 psi=3c8 omega=3c9',
  'ndash=2013 mdash=2014 lsquo=2018 rsquo=2019 sbquo=201a ldquo=201c rdquo=201d bdquo=201e dagger=2020',
  'Dagger=2021 bull=2022 hellip=2026 OElig=152 oelig=153 Scaron=160 scaron=161 Yuml=178 fnof=192 circ=2c6',
  'tilde=2dc permil=2030 lsaquo=2039 rsaquo=203a euro=20ac trade=2122',
  ]
    .join(' ')
    .split(' ')
    .map((pair) => pair.split('=') as [string, string]);

  it('masks a secret echoed with each name for its character, and the secret around it whole', () => {
    expect(NAMES.length).toBe(211);
    for (const [name, cp] of NAMES) {
      const secret = `k9${String.fromCodePoint(parseInt(cp, 16))}-secret-x`;
      expect(maskSecrets(`said k9&${name};-secret-x.`, [secret]), name).toBe(`said ${REDACTED}.`);
    }
  });
});

describe('a secret masked only whole (one that was not sent)', () => {
  const password = 'fleetdeck-demo';

  it('masks the whole secret in every spelling', () => {
    const spelt = [password, password.toUpperCase(), encodeURIComponent(`${password}/`).slice(0, -3), Buffer.from(password).toString('base64'), Buffer.from(password).toString('hex'), 'fleetdeck&hyphen;demo'.replace('&hyphen;', '&#45;')];
    for (const text of spelt) {
      expect(maskSecrets(`said ${text}.`, [password], true), text).toMatch(/^said \[redacted\][A-Za-z0-9+/]?={0,2}\.$/);
      expect(mentionsSecret(`said ${text}.`, [password], true), text).toBe(true);
    }
    expect(maskMentionedSecrets({ Message: `login failed with ${password}` }, [password], true)).toEqual({ Message: `login failed with ${REDACTED}` });
  });

  it('masks the base64 of a body holding it whole, at every byte offset, with text after it', () => {
    // A secret of its own: the pattern of a list of secrets is built once, by the first test using it.
    const other = 'site-admin-pass-77';
    for (const before of ['', 'x', 'xy']) {
      const text = Buffer.from(`${before}${other}; retry later`).toString('base64');
      expect(maskSecrets(`said ${text}.`, [other], true), before).toContain(REDACTED);
      expect(mentionsSecret(`said ${text}.`, [other], true), before).toBe(true);
    }
  });

  it('leaves its prefixes, pieces and base64 or hex cut short as they are', () => {
    for (const text of ['iqn.2012-06.com.fleetdeck:sys.n1', 'fleetdeck-mailer', 'eck-demo', Buffer.from('fleetdeck-de').toString('base64').slice(0, 12), Buffer.from('fleetdeck').toString('hex')]) {
      expect(maskSecrets(`said ${text}.`, [password], true), text).toBe(`said ${text}.`);
      expect(maskMentionedSecrets({ Name: text }, [password], true), text).toEqual({ Name: text });
    }
    // Sent, the same secret's prefix is masked: what was sent may come back cut short.
    expect(maskSecrets('said fleetdeck-mailer.', [password])).toBe(`said ${REDACTED}mailer.`);
  });
});
