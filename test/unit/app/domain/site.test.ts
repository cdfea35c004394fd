import { describe, expect, it } from 'vitest';
import { siteNameProblem } from '../../../../app/domain/site.js';

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
