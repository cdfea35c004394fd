import { describe, expect, it } from 'vitest';
import { REFRESH_READS } from '../../../../app/fleet/refresh-plan.js';
import { healthy } from './fixtures.js';
import { capacityFromAnswers, readOnlyReason, ROLLUP_READS, rollupAnswers, systemLevel, systemRollup } from '../../../../app/health/system-health.js';


describe("a system's health from its cached answers", () => {
  it('reads the cache with the queries the refresh caches under (history under the empty query)', () => {
    const asked: Array<[string, unknown]> = [];
    rollupAnswers((r) => void asked.push([r.op, r.query]));
    for (const [op, query] of asked) {
      if (op === 'GET /monitoring/capacity/pools/history') expect(query).toEqual({});
      else expect(REFRESH_READS.find((r) => r.op === op)?.query).toEqual(query);
    }
    expect(asked.map(([op]) => op).sort()).toEqual(Object.values(ROLLUP_READS).map((r) => r.op).sort());
  });

  it('rolls HA in only when the node list is cached, and a taken-over node makes the system critical', () => {
    const nodes = { Data: [{ Name: 'n1', State: 'Running', HAState: 'TakeoverActive' }, { Name: 'n2', State: 'Down', HAState: 'TakenOver' }] };
    expect(systemRollup({ health: healthy }, 0)).toMatchObject({ level: 'ok', ha: undefined });
    const r = systemRollup({ health: healthy, nodes }, 0);
    expect(r.level).toBe('critical');
    expect(r.reasons).toEqual(['HA: n2 taken over by n1']);
  });

  it("takes the system's own provisioning state over the allocated share", () => {
    const c = capacityFromAnswers({ health: healthy, provisioning: { Data: [{ PoolName: 'p', State: 'Full', Reason: 'NoFreeSpace' }] } }, 0);
    expect(c.pools[0]).toMatchObject({ name: 'p', level: 'critical' });
  });

  it('is unknown with nothing cached, and never ok for answers that are not what the catalog says', () => {
    expect(systemRollup({}, 0).level).toBe('unknown');
    expect(systemRollup({ health: null, pools: 'garbage', provisioning: { Data: 'x' }, history: [], nodes: null }, 0).level).toBe('unknown');
  });

  it('makes the level worse by the connection state, and names why writes are refused', () => {
    const ok = systemRollup({ health: healthy }, 0);
    expect(systemLevel(ok, 'ok')).toBe('ok');
    expect(systemLevel(ok, 'unreachable')).toBe('critical');
    expect(systemLevel(ok, 'login-required')).toBe('warning');
    expect(systemLevel(ok, 'protocol-error')).toBe('unknown');
    expect(systemLevel(ok, 'certificate-changed')).toBe('critical');
    expect(readOnlyReason('paused')).toBe('polling of this site is paused');
    expect(readOnlyReason('ok')).toBeUndefined();
    expect(readOnlyReason('toString')).toBeUndefined();
  });
});
