import { describe, expect, it } from 'vitest';
import { ASCII_LANGUAGES, plainWhole } from '../../../../renderer/lib/locale-formats.js';

// The first frame writes small figures without the locale's number format where that gives the same
// text: checked here against ICU itself, for every language it is used for.

describe('plainWhole', () => {
  it('writes 0–999 as the number format of every language it is used for, in every region', () => {
    const regions = ['', 'US', 'GB', 'IN', 'DE', 'CH', 'FR', 'CA', 'ES', 'MX', 'BR', 'PT', 'IT', 'NL', 'FI', 'SE', 'PL', 'RO', 'SI', 'ID', 'MY', 'KE', 'VN', 'JP', 'KR', 'CN', 'TW', 'HK', 'RU', 'UA', 'BG', 'GR', 'IL', 'ZA', 'EG', 'SA', 'IR', 'BD'];
    for (const language of ASCII_LANGUAGES) {
      for (const region of regions) {
        const format = new Intl.NumberFormat(region ? `${language}-${region}` : language, { maximumFractionDigits: 0 });
        for (const n of [0, 7, 42, 999]) expect(format.format(n), `${language}-${region} ${n}`).toBe(String(n));
      }
    }
  });

  it('leaves to the number format what may need grouping, fractions or a sign', () => {
    expect(plainWhole(999)).toBe('999');
    expect(plainWhole(0)).toBe('0');
    for (const n of [1000, 12_345, 1.5, -1, -0, Number.NaN]) expect(plainWhole(n)).toBeUndefined();
  });
});
