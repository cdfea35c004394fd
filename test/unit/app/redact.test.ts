import { describe, expect, it } from 'vitest';
import { REDACTED, isSecretField, maskSecrets, mentionsSecret, redact, redactedJson, secretValues } from '../../../app/redact.js';
import { OPERATIONS } from '../../../app/catalog/index.js';

describe('redact', () => {
  it('masks every secret field of the interface, at any depth and in any case', () => {
    const input = {
      Name: 'esx01',
      chapsecret: 'chap-123',
      Nodes: [{ TargetChap: { ChapName: 'n', ChapSecret: 'chap-456' } }],
      volume: { EncryptionKey: 'k', Object: { AccessKeys: ['a1', 'a2'] } },
      V3AuthPhrase: 'p1',
      V3PrivacyPhrase: 'p2',
      CommunityString: 'public',
      SessionToken: 'tok',
      Password: 'pw',
      Empty: null,
    };
    const out = redact(input);
    expect(out).toEqual({
      Name: 'esx01',
      chapsecret: REDACTED,
      Nodes: [{ TargetChap: { ChapName: 'n', ChapSecret: REDACTED } }],
      volume: { EncryptionKey: REDACTED, Object: { AccessKeys: REDACTED } },
      V3AuthPhrase: REDACTED,
      V3PrivacyPhrase: REDACTED,
      CommunityString: REDACTED,
      SessionToken: REDACTED,
      Password: REDACTED,
      Empty: null,
    });
    expect(input.chapsecret).toBe('chap-123');
  });

  it('knows every field the catalog marks secret', () => {
    for (const op of OPERATIONS) for (const path of op.secrets) expect(isSecretField(path.split('.').pop() as string), `${op.key} ${path}`).toBe(true);
  });

  it('knows the secrets of the transport and of loose spellings: authorization, token, password, secret, sedpassword, in any case', () => {
    for (const name of ['authorization', 'Authorization', 'AUTHORIZATION', 'token', 'Token', 'password', 'PASSWORD', 'secret', 'Secret', 'sedpassword', 'SEDPassword']) {
      expect(isSecretField(name), name).toBe(true);
    }
    const headers = { Authorization: 'Bearer tok-123456', 'Content-Type': 'application/json' };
    expect(redact({ headers })).toEqual({ headers: { Authorization: REDACTED, 'Content-Type': 'application/json' } });
    expect(redactedJson({ request: { authorization: 'raw-token-1234' } })).toBe('{"request":{"authorization":"[redacted]"}}');
    expect(secretValues({ headers })).toEqual(['Bearer tok-123456']);
    // Names that merely contain one are not secrets.
    for (const name of ['author', 'authorizations', 'tokens', 'passwordPolicy', 'Name', 'SecretName', '']) expect(isSecretField(name), name).toBe(false);
  });

  it('masks literal secrets inside free text', () => {
    expect(redact({ message: 'login failed for token abcd1234' }, ['abcd1234'])).toEqual({ message: `login failed for token ${REDACTED}` });
    expect(redact('short abc', ['abc'])).toBe('short abc');
  });
});

describe('redact on odd shapes', () => {
  it('cuts cycles but keeps objects shared between branches', () => {
    const shared = { Name: 'n1', ChapSecret: 'abcdefabcdef' };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ a: { Name: 'n1', ChapSecret: REDACTED }, b: { Name: 'n1', ChapSecret: REDACTED }, self: '[circular]' });
  });

  it('keeps a __proto__ key from parsed JSON as data, never as a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "Password": "pw"}') as Record<string, unknown>;
    const out = redact(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'Password']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"Password":"[redacted]"}');
  });
});

describe('redactedJson', () => {
  it('writes the same JSON as redact then stringify, without copying the value', () => {
    const value = JSON.parse(
      '{"__proto__": {"Password": "pw0"}, "Name": "esx01", "Nodes": [{"TargetChap": {"ChapSecret": "c1", "ChapName": "n"}}, ["Password", {"PASSWORD": "pw2"}]], "Empty": "", "None": null, "AccessKeys": ["a1"], "n": 3}',
    ) as unknown;
    const before = JSON.stringify(value);
    const json = redactedJson(value);
    expect(json).toBe(JSON.stringify(redact(value)));
    expect(json).not.toMatch(/pw0|pw2|c1|a1/);
    // A string that merely reads "Password" in an array is a value, not a field name.
    expect(json).toContain('["Password",{"PASSWORD":"[redacted]"}]');
    expect(JSON.stringify(value)).toBe(before);
  });

  it('answers undefined for what JSON cannot hold and throws on a cycle, as JSON.stringify does', () => {
    expect(redactedJson(undefined)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => redactedJson(cyclic)).toThrow(TypeError);
  });

  it('masks a secret field however it is spelt, and leaves a text without one as JSON.stringify writes it', () => {
    // The fast path takes JSON.stringify's text when no key in it names a secret: every spelling
    // that isSecretField accepts must still be found, the Kelvin sign (U+212A, lower case "k") too.
    const kelvin = 'Access\u212Aeys';
    expect(isSecretField(kelvin)).toBe(true);
    const spelt = { sessiontoken: 's1', SESSIONTOKEN: 's2', [kelvin]: ['k1'], deep: [[{ v3PrivacyPhrase: 'p1' }]], note: 'set "Password": here' };
    const json = redactedJson(spelt);
    expect(json).toBe(JSON.stringify(redact(spelt)));
    expect(json).not.toMatch(/s1|s2|k1|p1/);
    const plain = { Data: [{ Name: 'esx01', Comment: 'token rotated; see "password" policy', Size: 12 }], Status: 'ok' };
    expect(redactedJson(plain)).toBe(JSON.stringify(plain));
  });
});

describe('secrets by value', () => {
  it('collects every value sent under a secret field, at any depth, in any case', () => {
    const body = { Name: 'h1', chapsecret: 'chap-1234567', volume: { EncryptionKey: 'k'.repeat(64), Object: { AccessKeys: ['ak-one', 'ak-two'] } }, Password: '', Count: 4 };
    expect(secretValues(body).sort()).toEqual(['ak-one', 'ak-two', 'chap-1234567', 'k'.repeat(64)].sort());
    expect(secretValues(undefined)).toEqual([]);
    // As deep as a hostile payload may be: iterative, so no stack overflow.
    let deep: unknown = { Password: 'deep-secret' };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(secretValues(deep)).toEqual(['deep-secret']);
  });

  it('collects the same values, in the same order, from a query or body without nested objects as from one nested in another', () => {
    const flat = [
      { node: 'n1', driveid: 3 },
      { Password: 'pw-1234', password: 'pw-1234', Token: 98765, Secret: '', Name: 'x', Enabled: true, Gone: null, Missing: undefined },
      { ChapSecret: 'chap-a', Name: 'chap-a', V3AuthPhrase: 'phrase-b', SESSIONTOKEN: 'tok-c' },
      {},
    ];
    for (const o of flat) expect(secretValues(o), JSON.stringify(o)).toEqual(secretValues({ wrapped: o }));
    expect(secretValues(flat[2])).toEqual(['tok-c', 'phrase-b', 'chap-a']);
    expect(secretValues(flat[1])).toEqual(['98765', 'pw-1234']);
  });

  it('masks values echoed anywhere in an answer, raw or as JSON text, without touching field names', () => {
    const answer = {
      Message: 'User bob updated with password p"w\\secret',
      SessionToken: 'tok-login-answer',
      Details: ['raw {"Password":"p\\"w\\\\secret"} echoed'],
    };
    const masked = maskSecrets(answer, ['p"w\\secret']);
    expect(masked).toEqual({ Message: `User bob updated with password ${REDACTED}`, SessionToken: 'tok-login-answer', Details: [`raw {"Password":"${REDACTED}"} echoed`] });
    expect(maskSecrets('token abc in text', ['abc'])).toBe('token abc in text');
    expect(maskSecrets('a tok-12345678 b', ['tok-12345678'])).toBe(`a ${REDACTED} b`);
  });

  it('redact masks both secret fields and the given values', () => {
    expect(redact({ ChapSecret: 'c', note: 'echo of chap-98765' }, ['chap-98765'])).toEqual({ ChapSecret: REDACTED, note: `echo of ${REDACTED}` });
  });
});

describe('secrets echoed in another spelling', () => {
  const secret = 'Chap"Se/cret é+1';
  const body = JSON.stringify({ Name: 'h1', ChapSecret: secret });
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  const spellings: Record<string, string> = {
    'upper case': secret.toUpperCase(),
    'lower case': secret.toLowerCase(),
    'URL-encoded': encodeURIComponent(secret),
    'URL-encoded, lower-case hex': encodeURIComponent(secret).toLowerCase(),
    'URL-encoded twice': encodeURIComponent(encodeURIComponent(secret)),
    'form-encoded': new URLSearchParams({ s: secret }).toString().slice(2),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'JSON-escaped twice': JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    '.NET \\u escapes': secret.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`),
    'HTML named entities': secret.replace('"', '&quot;'),
    'HTML numeric entities': [...secret].map((c) => `&#${c.codePointAt(0)};`).join(''),
    'HTML hex entities': [...secret].map((c) => `&#x${c.codePointAt(0)?.toString(16)};`).join(''),
    'cut to 8 characters': secret.slice(0, 8),
  };
  for (const [name, spelt] of Object.entries(spellings)) {
    it(`masks a secret ${name}`, () => {
      expect(maskSecrets(`system said: ${spelt}!`, [secret])).toBe(`system said: ${REDACTED}!`);
      expect(mentionsSecret(`system said: ${spelt}!`, [secret])).toBe(true);
    });
  }

  it('masks every character spelt its own way, in a mix', () => {
    const wide = 'pä€😀"<\\\n\t x';
    const spelt = [
      'P',
      '%C3%A4',
      '&#x20ac;',
      '\\uD83D\\uDE00',
      '&#0034;',
      '&amp;lt;',
      '\\\\',
      '\\n',
      '%09',
      '+',
      '&#X78;',
    ].join('');
    expect(maskSecrets(`said ${spelt}.`, [wide])).toBe(`said ${REDACTED}.`);
    expect(maskSecrets(`said ${encodeURIComponent(wide)}.`, [wide])).toBe(`said ${REDACTED}.`);
    expect(maskSecrets(`said ${JSON.stringify(wide)}.`, [wide])).toBe(`said "${REDACTED}".`);
    expect(maskSecrets(`said ${[...wide].map((c) => `&#${c.codePointAt(0)};`).join('')}.`, [wide])).toBe(`said ${REDACTED}.`);
    // A JSON text URL-encoded, and its backslash as \\u005C or an entity.
    expect(maskSecrets(`q=${encodeURIComponent(JSON.stringify({ p: 'ab"cdefgh' }))}`, ['ab"cdefgh'])).toBe(`q=%7B%22p%22%3A%22${REDACTED}%22%7D`);
    expect(maskSecrets('ab\\u005C\\u0022cdefgh ab&#92;"cdefgh ab&#x5c;&quot;cdefgh', ['ab"cdefgh'])).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
  });

  it('masks base64 of a secret of 6 characters or more, of a lone surrogate as UTF-8 writes it too', () => {
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    expect(maskSecrets(`x ${b64('k9Qz7w')} y`, ['k9Qz7w'])).toContain(REDACTED);
    expect(mentionsSecret(`x ${b64('k9Qz7w')} y`, ['k9Qz7w'])).toBe(true);
    // Five characters make at most 6 base64 characters of their own: too short to tell from chance.
    expect(maskSecrets(`x ${b64('k9Qz7')} y`, ['k9Qz7'])).toBe(`x ${b64('k9Qz7')} y`);
    const odd = 'ab\ud800cdefgh12';
    expect(maskSecrets(`x ${b64(odd)} y`, [odd])).toContain(REDACTED);
    expect(maskSecrets(`x ${b64(odd.toUpperCase())}`, [odd])).not.toContain(REDACTED);
  });

  it('tells the same of a secret asked again and again, in ASCII text or not, in any case', () => {
    const secret = 'Tok3n-Secret+Value';
    const texts = [
      ['{"Name":"a","Note":"tok3n-secret"}', true],
      ['{"Name":"é","Note":"TOK3N-SECRET"}', true],
      ['{"Name":"a\\/b","Note":"tok3n-s ecret"}', false],
      ['{"Name":"a\\/b","Note":"tok3n\\u002dsecret"}', true],
      ['{"Name":"a","Note":"nothing here"}', false],
      ['{"Note":"\u212Aey"}', false],
    ] as const;
    for (let round = 0; round < 3; round++) for (const [text, mentions] of texts) expect(mentionsSecret(text, [secret]), `${text}, round ${round}`).toBe(mentions);
    // Its lower case is k, but no spelling of the secret is a Kelvin sign: no mention, found or searched.
    expect(mentionsSecret('{"Note":"\u212Aey-1234"}', ['key-1234'])).toBe(false);
    expect(mentionsSecret('{"Note":"Key-1234"}', ['key-1234'])).toBe(true);
  });

  it('masks the longest of two secrets whole, and each of several', () => {
    expect(maskSecrets('a abcd1234-longer b', ['abcd1234', 'abcd1234-longer'])).toBe(`a ${REDACTED} b`);
    expect(maskSecrets('a abcd1234-longer b', ['abcd1234-longer', 'abcd1234'])).toBe(`a ${REDACTED} b`);
    expect(maskSecrets(['one s3cr3t-aa', 'two p4ssw0rd-bb'], ['s3cr3t-aa', 'p4ssw0rd-bb'])).toEqual([`one ${REDACTED}`, `two ${REDACTED}`]);
    expect(maskSecrets('abcd and ABCD', ['abcd'])).toBe(`${REDACTED} and ${REDACTED}`);
  });

  it('answers whether a text mentions a secret the cheap way and the full way alike', () => {
    const secret = 'Open Sesame-42';
    for (const text of ['OPEN SESAME-42', 'open+sesame-42', 'Open Sesa', Buffer.from(`{"p":"${secret}"}`).toString('base64'), Buffer.from(`__${secret}`).toString('base64url')]) {
      expect(mentionsSecret(text, [secret]), text).toBe(true);
      expect(maskSecrets(text, [secret]), text).toContain(REDACTED);
    }
    for (const text of ['Open Ses', 'Open%20Ses']) expect(mentionsSecret(text, [secret]), text).toBe(true);
    for (const text of ['Open Se', 'Open%20Se', 'nothing here', '100% & more \\ here']) {
      expect(mentionsSecret(text, [secret]), text).toBe(false);
      expect(maskSecrets(text, [secret]), text).toBe(text);
    }
    expect(mentionsSecret('Open Sesame-42', [])).toBe(false);
  });

  it('masks a secret in base64 of the body, at every byte offset, standard and URL-safe', () => {
    for (const prefix of ['', 'x', 'xy']) {
      for (const encoded of [b64(prefix + body), Buffer.from(prefix + body).toString('base64url')]) {
        const masked = maskSecrets(`echo ${encoded}`, [secret]);
        expect(masked, prefix).toContain(REDACTED);
        const runs = masked.slice(5).split(REDACTED);
        for (const run of runs) for (let skip = 0; skip < 4; skip++) expect(Buffer.from(run.slice(skip), 'base64').toString('latin1')).not.toContain('Se/cret');
        expect(mentionsSecret(`echo ${encoded}`, [secret])).toBe(true);
      }
    }
    // The last character also holds padding bits: only what depends on the secret alone is masked.
    expect(maskSecrets(`token ${b64('tok-1234567890')}`, ['tok-1234567890'])).toMatch(/^token \[redacted\][A-Za-z0-9+/]?=*$/);
  });

  it('masks a secret cut short at 8 characters or more, and nothing shorter', () => {
    const token = 'abcdef0123456789';
    expect(maskSecrets(`t=${token.slice(0, 11)}…`, [token])).toBe(`t=${REDACTED}…`);
    expect(maskSecrets(`t=${token.slice(0, 7)}…`, [token])).toBe(`t=${token.slice(0, 7)}…`);
    expect(mentionsSecret(`t=${token.slice(0, 7)}`, [token])).toBe(false);
    // A short secret is masked whole only.
    expect(maskSecrets('pin 12345 and 1234', ['123456'])).toBe('pin 12345 and 1234');
  });

  it('leaves text without the secret as it is', () => {
    const text = 'Normal & ok <x> 100% \\u0041 QUJDREVGR0g= abcdefg';
    expect(maskSecrets(text, ['abcdefgh-secret'])).toBe(text);
    expect(mentionsSecret(text, ['abcdefgh-secret'])).toBe(false);
    expect(mentionsSecret(text, ['abc'])).toBe(false);
  });

  it('scans hostile text in linear time', () => {
    const hostile = `${'\\'.repeat(100_000)}${'%25'.repeat(50_000)}${'&amp;'.repeat(50_000)}`;
    // Would take minutes with unbounded repetition; finishes well within the test's time limit.
    expect(maskSecrets(hostile, ['Chap"Secret-1234'])).toBe(hostile);
  });
});
