import { describe, expect, it } from 'vitest';
import { connectionLevel, connectionReason, readOnlyReason, systemLevel, systemReasons } from '../../../../app/health/connection.js';
import { LEVELS_BY_RANK, levelRank, worse, worst, type Level } from '../../../../app/health/level.js';

describe('levels', () => {
  it('ranks critical first, then unknown, warning and ok', () => {
    expect(LEVELS_BY_RANK.map(levelRank)).toEqual([0, 1, 2, 3]);
    expect(levelRank('unknown')).toBeLessThan(levelRank('warning'));
  });

  it('takes the worse of two levels in either order, and a level against itself', () => {
    const pairs: Array<[Level, Level, Level]> = [
      ['ok', 'warning', 'warning'],
      ['warning', 'unknown', 'unknown'],
      ['unknown', 'critical', 'critical'],
      ['ok', 'critical', 'critical'],
      ['warning', 'warning', 'warning'],
    ];
    for (const [a, b, w] of pairs) {
      expect(worse(a, b), `${a} ${b}`).toBe(w);
      expect(worse(b, a), `${b} ${a}`).toBe(w);
    }
  });

  it('takes the worst of several, and the given level of none', () => {
    expect(worst(['ok', 'warning', 'ok'])).toBe('warning');
    expect(worst(['unknown', 'critical', 'warning'])).toBe('critical');
    expect(worst(['warning'])).toBe('warning');
    expect(worst([])).toBe('ok');
    expect(worst([], 'unknown')).toBe('unknown');
    expect(worst(['ok'], 'unknown')).toBe('ok');
  });
});

describe('a system’s connection state', () => {
  it('refuses writes, saying why, in each state that cannot take them', () => {
    expect(readOnlyReason('unreachable')).toBe('the system is unreachable');
    expect(readOnlyReason('paused')).toBe('polling of this site is paused');
    expect(readOnlyReason('login-required')).toBe('the session needs a new login');
    expect(readOnlyReason('certificate-changed')).toBe("the site's certificate changed and is not trusted");
    expect(readOnlyReason('unlisted')).toBe('the site no longer lists this system');
    for (const state of ['ok', 'stale', 'protocol-error', undefined, '', 'toString', '__proto__']) expect(readOnlyReason(state), String(state)).toBeUndefined();
  });

  it('weighs as critical, unknown, a warning or not at all', () => {
    expect(connectionLevel('unreachable')).toBe('critical');
    expect(connectionLevel('certificate-changed')).toBe('critical');
    expect(connectionLevel('protocol-error')).toBe('unknown');
    for (const state of ['paused', 'login-required', 'unlisted']) expect(connectionLevel(state), state).toBe('warning');
    for (const state of ['ok', 'stale', undefined, 'constructor']) expect(connectionLevel(state), String(state)).toBe('ok');
  });

  it('makes a system’s level worse, never better', () => {
    expect(systemLevel({ level: 'ok' }, 'paused')).toBe('warning');
    expect(systemLevel({ level: 'critical' }, 'paused')).toBe('critical');
    expect(systemLevel({ level: 'warning' }, 'protocol-error')).toBe('unknown');
    expect(systemLevel({ level: 'warning' }, 'ok')).toBe('warning');
  });

  it('puts its reason before the roll-up’s, only when it weighs in', () => {
    expect(connectionReason('protocol-error')).toBe('answers the app cannot read');
    expect(connectionReason('paused')).toBe('polling of this site is paused');
    expect(connectionReason('ok')).toBeUndefined();
    const rollup = { reasons: ['pool p1 is 95 % full'] };
    expect(systemReasons(rollup, 'unreachable')).toEqual(['the system is unreachable', 'pool p1 is 95 % full']);
    expect(systemReasons(rollup, 'protocol-error')).toEqual(['answers the app cannot read', 'pool p1 is 95 % full']);
    const own = systemReasons(rollup, 'ok');
    expect(own).toEqual(['pool p1 is 95 % full']);
    own.push('x');
    expect(rollup.reasons).toEqual(['pool p1 is 95 % full']);
  });
});
