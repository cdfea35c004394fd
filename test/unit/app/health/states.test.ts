import { describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../../../app/alerts/evaluate.js';
import { DEFAULT_RULES } from '../../../../app/alerts/rules.js';
import { assessCapacity } from '../../../../app/capacity/pools.js';
import { haOf } from '../../../../app/health/ha.js';
import { levelRank } from '../../../../app/health/level.js';
import { rollupHealth, unhealthyDrives } from '../../../../app/health/rollup.js';
import { classifyState, driveLevel, pairLevel, type StateKind } from '../../../../app/health/states.js';
import { systemLevel, systemRollup } from '../../../../app/health/system-health.js';
import { buildReport } from '../../../../app/reports/build.js';
import { fixtureInput } from '../reports/fixtures.js';
import { rowsOf } from '../reports/helpers.js';
import { healthy } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 31, 12);

describe('one classification per enumeration', () => {
  it('knows the states systems report, and calls any other word not understood: unknown, above a warning, never ok', () => {
    const cases: Array<[StateKind, string, string]> = [
      ['drive', 'OK', 'ok'],
      ['drive', 'Missing', 'critical'],
      ['drive', 'Failed', 'critical'],
      ['drive', 'Degraded', 'warning'],
      ['drive', 'PredictiveFailure', 'warning'],
      ['drive', 'Predictive_Failure', 'warning'],
      ['drive', 'Smouldering', 'unknown'],
      ['node', 'Running', 'ok'],
      ['node', 'Down', 'critical'],
      ['node', 'Hibernating', 'unknown'],
      ['ha', 'Normal', 'ok'],
      ['ha', 'Unknown', 'ok'],
      ['ha', 'TakenOver', 'critical'],
      ['ha', 'Quorumless', 'unknown'],
      ['pool', 'Ok', 'ok'],
      ['pool', 'Full', 'critical'],
      ['pool', 'Warning', 'warning'],
      ['pool', 'Rebalancing', 'unknown'],
      ['volume', 'Degraded', 'warning'],
      ['volume', 'Offline', 'critical'],
      ['volume', 'Shimmering', 'unknown'],
      ['replication', 'InSync', 'ok'],
      ['replication', 'Syncing', 'warning'],
      ['replication', 'Disconnected', 'critical'],
      ['replication', 'Wandering', 'unknown'],
    ];
    expect(cases.map(([kind, state]) => [kind, state, classifyState(kind, state)?.level])).toEqual(cases);
    expect(classifyState('drive', 'Smouldering')?.understood).toBe(false);
    expect(classifyState('drive', undefined)).toBeUndefined();
    expect(levelRank('unknown')).toBeLessThan(levelRank('warning'));
  });

  it('gives a drive in a state not understood the same level in the roll-up, the alert and the SMART and health reports', () => {
    const resources = { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Smouldering' }, { Id: 2, Name: 'd2', ResourceStatus: 'PredictiveFailure' }, { Id: 3, Name: 'd3', ResourceStatus: 'OK' }] }] };
    const levels = { d1: 'unknown', d2: 'warning', d3: 'ok' } as const;
    expect(unhealthyDrives(resources.Data).map((d) => [d.drive.Name, driveLevel(d.drive)])).toEqual([
      ['d1', 'unknown'],
      ['d2', 'warning'],
    ]);
    const rollup = systemRollup({ health: healthy, resources }, NOW);
    expect(rollup.dimensions.find((d) => d.name === 'drives')).toMatchObject({ level: 'unknown', text: '1 “Smouldering” (not understood), 1 PredictiveFailure' });
    expect(rollup.level).toBe('unknown');

    const alerts = evaluateAlerts({ state: 'ok', rollup: { health: healthy, resources }, now: NOW }, DEFAULT_RULES).conditions.filter((c) => c.rule === 'drive');
    expect(alerts.map((a) => [a.subject, a.level])).toEqual([
      ['n1/d1', levels.d1],
      ['n1/d2', levels.d2],
    ]);

    const at = new Date(NOW - 60_000).toISOString();
    const input = { ...fixtureInput(), generatedAt: new Date(NOW).toISOString() };
    input.systems = [{ ...input.systems[0]!, state: 'ok', answers: { 'GET /resources/list': { value: resources, at }, 'GET /monitoring/health/current': { value: healthy, at } }, smart: [] }];
    const byDrive = (rows: Array<Record<string, unknown>>, name: string, level: string): Record<string, unknown> => Object.fromEntries(rows.map((r) => [r[name], r[level]]));
    expect(byDrive(rowsOf(buildReport('smart', input), 'smart.drives'), 'drive', 'risk')).toEqual({ d1: 'unknown', d2: 'warning', d3: 'no SMART data' });
    expect(byDrive(rowsOf(buildReport('health', input), 'health.hardwareProblems'), 'name', 'level')).toEqual({ d1: levels.d1, d2: levels.d2 });
    expect(rowsOf(buildReport('health', input), 'health.systems')[0]?.level).toBe(rollup.level);
  });

  it('ranks a system with a missing drive above one with a drive at warning, whatever their health percentages', () => {
    const missing = rollupHealth({ ...healthy, HardwareResources: { HardwareResourcesHealthInPercentage: 98, UnhealthyResourceCount: { Drive: 1 } } }, { drives: [{ node: 'n1', drive: { ResourceStatus: 'Missing' } }] });
    const nvme = rollupHealth({ ...healthy, HardwareResources: { HardwareResourcesHealthInPercentage: 85, UnhealthyResourceCount: { Drive: 1 } } }, { drives: [{ node: 'n1', drive: { ResourceStatus: 'Warning' } }] });
    expect(systemLevel(missing, 'ok')).toBe('critical');
    expect(systemLevel(nvme, 'ok')).toBe('warning');
  });

  it('rates a pair, a node and a pool by the same tables', () => {
    expect(pairLevel({ ConnectionStatus: 'InSync', SyncInPercentage: 100 })).toBe('ok');
    expect(pairLevel({ ConnectionStatus: 'InSync', SyncInPercentage: 80 })).toBe('warning');
    expect(pairLevel({ ConnectionStatus: 'Wandering' })).toBe('unknown');
    expect(haOf([{ Name: 'n1', State: 'Running', HAState: 'Normal' }, { Name: 'n2', State: 'Hibernating', HAState: 'Normal' }])).toMatchObject({ level: 'unknown', label: 'degraded' });
    expect(assessCapacity({ provisioning: [{ PoolName: 'p', State: 'Rebalancing' }] }).pools[0]?.level).toBe('unknown');
  });
});
