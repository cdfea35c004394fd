import { describe, expect, it } from 'vitest';
import { REDACTED, isSecretField, redact } from '../../../app/redact.js';
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

  it('masks literal secrets inside free text', () => {
    expect(redact({ message: 'login failed for token abcd1234' }, ['abcd1234'])).toEqual({ message: `login failed for token ${REDACTED}` });
    expect(redact('short abc', ['abc'])).toBe('short abc');
  });
});
