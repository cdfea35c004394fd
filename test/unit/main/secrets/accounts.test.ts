import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../app/errors.js';
import { passwordAccount, sitePrefix, tokenAccount } from '../../../../main/secrets/accounts.js';

describe('secret account names', () => {
  it('names the password and per-system tokens under the site prefix', () => {
    expect(sitePrefix('lab')).toBe('site/lab/');
    expect(passwordAccount('lab')).toBe('site/lab/password');
    expect(tokenAccount('lab', 'sys1')).toBe('site/lab/system/sys1/token');
  });

  it('encodes system names so slashes and spaces cannot forge another account', () => {
    expect(tokenAccount('lab', 'east/2 a')).toBe('site/lab/system/east%2F2%20a/token');
    expect(tokenAccount('lab', 'x/token')).not.toBe(tokenAccount('lab', 'x'));
  });

  it('keeps one site prefix from matching another site', () => {
    const accounts = [passwordAccount('a-b'), passwordAccount('a/b'), tokenAccount('ab', 's'), passwordAccount('a b')];
    expect(accounts.filter((account) => account.startsWith(sitePrefix('a')))).toEqual([]);
    expect(passwordAccount('a').startsWith(sitePrefix('a'))).toBe(true);
    expect(tokenAccount('a', 'x/y').startsWith(sitePrefix('a'))).toBe(true);
  });

  it('refuses empty site ids and system names', () => {
    expect(() => sitePrefix('')).toThrow(RangeError);
    expect(() => tokenAccount('a', '')).toThrow(RangeError);
  });

  it('refuses a name with a lone surrogate as the caller\'s input, rather than folding two names into one account', () => {
    expect(() => tokenAccount('a', 'sys\uD800')).toThrow(InputError);
    expect(() => sitePrefix('\uDC00')).toThrow(/lone UTF-16 surrogate/);
    // A paired surrogate (an emoji) is well-formed text and names its own account.
    expect(tokenAccount('a', 'sys\u{1F4BE}')).toBe(`site/a/system/${encodeURIComponent('sys\u{1F4BE}')}/token`);
  });
});
