import { describe, expect, it } from 'vitest';
import { levelName, notificationRank, readLevel } from '../../../../app/health/notification-level.js';

describe('notification levels', () => {
  it.each<[unknown, number | string | undefined]>([
    [5, 5],
    ['4', 4],
    ['Fatal', 5],
    ['CRITICAL', 5],
    ['error', 4],
    ['Warn', 3],
    ['info', 2],
    ['Debug', 1],
    ['trace', 0],
    ['Alarmed', 'Alarmed'],
    ['', undefined],
    [null, undefined],
  ])('reads %j as %j', (raw, level) => {
    expect(readLevel(raw)).toEqual(level);
  });

  it('ranks a level not understood as possibly serious and names it so', () => {
    expect(notificationRank('Alarmed')).toBe(4);
    expect(notificationRank(undefined)).toBe(0);
    expect(levelName('Alarmed')).toBe('"Alarmed" (not understood)');
    expect(levelName(5)).toBe('Critical');
  });
});
