import { describe, expect, it } from 'vitest';
import { needsLook } from '../../../../app/health/summary-facts.js';
import { capacityFromAnswers, listOf, systemObjects } from '../../../../app/health/system-health.js';

describe('reading cached answers', () => {
  it('takes the Data list of a list answer, and nothing from anything else', () => {
    expect(listOf({ Data: [1, 2] })).toEqual([1, 2]);
    for (const v of [undefined, null, {}, { Data: 'x' }, { Data: { a: 1 } }, [1, 2]]) expect(listOf(v), JSON.stringify(v)).toEqual([]);
  });

  it('rolls in drives and pairs only when their list is cached, an empty list as nothing wrong', () => {
    expect(systemObjects({})).toEqual({ drives: undefined, lagging: undefined });
    expect(systemObjects({ resources: null, replication: null })).toEqual({ drives: undefined, lagging: undefined });
    expect(systemObjects({ resources: { Data: [] }, replication: { Data: [] } })).toEqual({ drives: [], lagging: [] });
    expect(systemObjects({ resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, ResourceStatus: 'Failed' }] }] } }).drives).toEqual([{ node: 'n1', drive: { Id: 1, ResourceStatus: 'Failed' } }]);
  });

  it('forecasts from no history when the history answer is not a list', () => {
    const a = capacityFromAnswers({ history: { PerformanceStatstics: 'broken' } }, Date.parse('2026-11-28T00:00:00Z'));
    const b = capacityFromAnswers({}, Date.parse('2026-11-28T00:00:00Z'));
    expect(a).toEqual(b);
  });
});

describe('pools needing a look', () => {
  it('are those at a warning or critical, not ok or unknown', () => {
    expect(['ok', 'unknown', 'warning', 'critical'].map((level) => needsLook({ level: level as 'ok' }))).toEqual([false, false, true, true]);
  });
});
