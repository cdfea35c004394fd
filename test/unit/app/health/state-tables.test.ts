import { describe, expect, it } from 'vitest';
import { isUnknownLevel, levelName, notificationRank, readLevel } from '../../../../app/health/notification-level.js';
import { classifyState, pairLevel, stateLevelOf, type StateKind } from '../../../../app/health/states.js';
import type { Level } from '../../../../app/health/level.js';

/** Every word each table knows, as a system may spell it, with the level it means. */
const WORDS: Record<StateKind, Record<Exclude<Level, 'unknown'>, string[]>> = {
  drive: {
    ok: ['OK', 'Online', 'healthy', 'Good', 'normal'],
    critical: ['Failed', 'failure', 'Missing', 'removed', 'Offline', 'faulted', 'Fault', 'dead', 'Critical', 'error', 'Unavailable'],
    warning: ['Warning', 'degraded', 'Degrading', 'Predictive Failure', 'predicted-fail', 'Rebuilding'],
  },
  node: {
    ok: ['Running', 'up', 'Online', 'OK'],
    critical: ['Down', 'stopped', 'Offline', 'failed', 'Halted', 'error'],
    warning: ['Booting', 'starting', 'Stopping', 'maintenance', 'Degraded'],
  },
  ha: {
    ok: ['Normal', 'Unknown', 'none', ''],
    critical: ['Taken Over', 'takeover_active'],
    warning: ['Giving Back', 'giveback-active', 'TakingOver', 'degraded'],
  },
  pool: {
    ok: ['OK', 'Normal', 'healthy', 'None', 'good'],
    critical: ['Full', 'critical', 'space exhausted'],
    warning: ['Warning', 'Low space', 'Near limit', 'Degraded'],
  },
  volume: {
    ok: ['OK', 'Online', 'healthy', 'Normal', 'good'],
    critical: ['Failed', 'offline', 'Faulted', 'error', 'Critical', 'unavailable'],
    warning: ['Degraded', 'rebuilding', 'Warning', 'Recovering', 'Read Only'],
  },
  replication: {
    ok: ['In Sync', 'synced', 'Synchronized', 'connected', 'OK', 'Active'],
    critical: ['Disconnected', 'failed', 'Error', 'broken', 'Stopped', 'Split Brain', 'split'],
    warning: ['Initializing', 'syncing', 'Resyncing', 'Paused', 'suspended', 'Out of Sync', 'lagging'],
  },
};

describe('state tables', () => {
  for (const [kind, levels] of Object.entries(WORDS) as Array<[StateKind, Record<string, string[]>]>) {
    it(`reads every ${kind} state it knows, in any case and spacing`, () => {
      for (const [level, words] of Object.entries(levels)) {
        for (const word of words) {
          if (word === '' && kind !== 'ha') continue;
          expect(classifyState(kind, word), `${kind} "${word}"`).toEqual({ level, understood: true });
          expect(classifyState(kind, ` ${word.toUpperCase()} `), `${kind} " ${word.toUpperCase()} "`).toEqual({ level, understood: true });
        }
      }
    });

    it(`does not take a ${kind} state for one it only contains or starts`, () => {
      for (const words of Object.values(levels)) {
        for (const word of words) {
          if (word.length < 3 || kind === 'pool') continue;
          const flat = word.toLowerCase().replace(/[\s_-]+/g, '');
          if (/\.\*|split|predict/.test(flat)) continue;
          expect(classifyState(kind, `x${flat}`)?.understood, `${kind} x${flat}`).toBe(false);
          expect(classifyState(kind, `${flat}x`)?.understood, `${kind} ${flat}x`).toBe(false);
        }
      }
    });
  }

  it('treats an empty state as not reported, except HA where it is normal', () => {
    for (const kind of ['drive', 'node', 'pool', 'volume', 'replication'] as const) {
      expect(classifyState(kind, '  '), kind).toBeUndefined();
      expect(stateLevelOf(kind, ''), kind).toBe('ok');
    }
    expect(classifyState('ha', ' ')).toEqual({ level: 'ok', understood: true });
    expect(classifyState('drive', null)).toBeUndefined();
    expect(classifyState('drive', 'Wibbling')).toEqual({ level: 'unknown', understood: false });
    expect(classifyState('pool', 'Not good')).toEqual({ level: 'unknown', understood: false });
    expect(classifyState('pool', 'Good enough')).toEqual({ level: 'unknown', understood: false });
    expect(classifyState('drive', 'Predictive__Failure')).toEqual({ level: 'warning', understood: true });
  });

  it('counts a replication pair below 100 % in sync as at least a warning', () => {
    expect(pairLevel({ ConnectionStatus: 'Connected', SyncInPercentage: 99.5 })).toBe('warning');
    expect(pairLevel({ ConnectionStatus: 'Connected', SyncInPercentage: 100 })).toBe('ok');
    expect(pairLevel({ ConnectionStatus: 'Connected' })).toBe('ok');
    expect(pairLevel({ ConnectionStatus: 'Broken', SyncInPercentage: 50 })).toBe('critical');
  });
});

describe('notification levels', () => {
  const NAMES: Record<number, string[]> = {
    0: ['verbose', 'trace', 'all', 'finest', 'finer'],
    1: ['debug', 'dbg', 'fine', 'config'],
    2: ['information', 'informational', 'info', 'inf', 'notice', 'note'],
    3: ['warning', 'warn', 'wrn'],
    4: ['error', 'err', 'severe', 'major'],
    5: ['critical', 'crit', 'fatal', 'ftl', 'emergency', 'emerg', 'alert', 'panic'],
  };

  it('reads every name of every logging scale it knows, in any case and spacing', () => {
    for (const [n, names] of Object.entries(NAMES)) {
      for (const name of names) {
        expect(readLevel(name), name).toBe(Number(n));
        expect(readLevel(` ${name.toUpperCase()} `), name).toBe(Number(n));
      }
    }
    expect(readLevel('Fatal_Error')).toBe('Fatal_Error');
    expect(readLevel('in-fo')).toBe(2);
    expect(readLevel('crit ical')).toBe(5);
    expect(readLevel('in__fo')).toBe(2);
    expect(readLevel('12')).toBe(12);
  });

  it('reads numbers and numeric text as numbers, and keeps other values as text', () => {
    expect(readLevel(3)).toBe(3);
    expect(readLevel(' +4 ')).toBe(4);
    expect(readLevel('-1')).toBe(-1);
    expect(readLevel('4.5')).toBe('4.5');
    expect(readLevel('12a')).toBe('12a');
    expect(readLevel(Number.NaN)).toBe('NaN');
    expect(readLevel(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(readLevel({ level: 3 })).toBe('{"level":3}');
    expect(readLevel(true)).toBe('true');
    expect(readLevel(null)).toBeUndefined();
    expect(readLevel(undefined)).toBeUndefined();
    expect(readLevel('   ')).toBeUndefined();
  });

  it('ranks, names and flags levels', () => {
    expect(notificationRank(5)).toBe(5);
    expect(notificationRank('odd')).toBe(4);
    expect(notificationRank(undefined)).toBe(0);
    expect(notificationRank(undefined, 2)).toBe(2);
    expect(isUnknownLevel('odd')).toBe(true);
    expect(isUnknownLevel(3)).toBe(false);
    expect(levelName(0)).toBe('Verbose');
    expect([1, 2, 3, 4, 5].map((n) => levelName(n))).toEqual(['Debug', 'Information', 'Warning', 'Error', 'Critical']);
    expect(levelName(9)).toBe('Level 9');
    expect(levelName('x'.repeat(50))).toBe(`"${'x'.repeat(40)}" (not understood)`);
    expect(levelName(undefined)).toBe('—');
    expect(levelName(null, 'none')).toBe('none');
    expect(levelName({}, 'none')).toBe('none');
  });
});
