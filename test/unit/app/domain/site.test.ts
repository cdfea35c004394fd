import { describe, expect, it } from 'vitest';
import { siteNameProblem, supersedes } from '../../../../app/domain/site.js';

describe('siteNameProblem', () => {
  it('refuses a right-to-left override and every other control or direction character', () => {
    for (const name of ['invoice\u202Efdp.exe', 'lab\u202Da', 'lab\u2066a', 'lab\u200Fa', 'lab\u061Ca', 'lab\u0085a', 'lab\u007fa', 'lab\u001b[31m', 'lab\ta']) {
      expect(siteNameProblem(name), JSON.stringify(name)).toBe('a site name cannot contain control or text-direction characters');
    }
  });

  it('accepts names in any script', () => {
    for (const name of ['Paris DC', 'Zürich-1', 'مركز البيانات', '東京 本社']) expect(siteNameProblem(name), name).toBeUndefined();
  });
});

describe('supersedes', () => {
  it('takes a status with a larger sequence number than the one kept, never an older or the same one', () => {
    expect(supersedes({ seq: 8 }, { seq: 5 })).toBe(true);
    expect(supersedes({ seq: 5 }, { seq: 8 })).toBe(false);
    expect(supersedes({ seq: 5 }, { seq: 5 })).toBe(false);
    expect(supersedes({ seq: 0 }, undefined)).toBe(true);
  });

  it('takes the one that arrived last when either carries no sequence number (a status from no main)', () => {
    expect(supersedes({}, { seq: 5 })).toBe(true);
    expect(supersedes({ seq: 1 }, {})).toBe(true);
    expect(supersedes({}, {})).toBe(true);
  });
});
