import { describe, expect, it } from 'vitest';
import { alertsShownText } from '../../../../app/alerts/alert.js';

describe('alertsShownText', () => {
  it('counts every alert shown under its own state, not only the open ones', () => {
    const list = [...Array(12).fill({ state: 'open' }), { state: 'acknowledged' }, { state: 'snoozed' }] as const;
    expect(alertsShownText(list)).toBe('14 alerts: 12 open, 1 acknowledged, 1 snoozed');
    expect(alertsShownText([{ state: 'cleared' }])).toBe('1 alert: 1 cleared');
    expect(alertsShownText([])).toBe('0 alerts');
  });
});
