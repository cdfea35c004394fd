import { describe, expect, it } from 'vitest';
import { cellText } from '../../../../renderer/reports/cells.js';

describe('report cells', () => {
  it('reads as the exported HTML does', () => {
    expect(cellText('bytes', 1536)).toBe('1.50 KiB');
    expect(cellText('percent', 81.14)).toBe('81.1 %');
    expect(cellText('number', 0)).toBe('0');
    expect(cellText('bool', false)).toBe('no');
    expect(cellText('text', null)).toBe('—');
    expect(cellText('text', '')).toBe('—');
    expect(cellText('time', '2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00Z');
  });
});
