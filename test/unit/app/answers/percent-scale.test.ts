import { describe, expect, it } from 'vitest';
import { normaliseAnswer } from '../../../../app/answers/normalise.js';
import { learnScale, scaleAgreeing, scaleEvidence, type PercentScale, type ScaleEvidence } from '../../../../app/answers/percent-scale.js';
import { getOperation, type Health } from '../../../../app/catalog/index.js';
import { rollupHealth } from '../../../../app/health/rollup.js';

const HEALTH = getOperation('GET /monitoring/health/current').response;

/** A system's answers read in order, its scale learned across them as the session does. */
function system(known?: ScaleEvidence) {
  let scale = known;
  return {
    read(answer: unknown): Health {
      const r = normaliseAnswer(HEALTH, structuredClone(answer), {
        learnPercentScale: (e) => (scale = learnScale(scale, e))?.scale,
      });
      if (!r.ok) throw new Error(r.answered);
      return r.value as Health;
    },
    scale: (): PercentScale | undefined => scale?.scale,
  };
}

describe('percentage scale: the evidence', () => {
  it('takes the reading that agrees with the sizes beside it', () => {
    expect(scaleAgreeing(1, 1)).toBe('fraction');
    expect(scaleAgreeing(100, 1)).toBe('percent');
    expect(scaleAgreeing(0.8, 0.8)).toBe('fraction');
    expect(scaleAgreeing(80, 0.8)).toBe('percent');
    // 0 is 0 either way; a figure that agrees with neither tells nothing.
    expect(scaleAgreeing(0, 0)).toBeUndefined();
    expect(scaleAgreeing(50, 0.9)).toBeUndefined();
  });

  it('weighs sizes over values, a value over 1 over fractions, and keeps strong evidence', () => {
    expect(scaleEvidence([0.5], ['percent'])).toEqual({ scale: 'percent', strong: true });
    expect(scaleEvidence([1, 0.42], ['fraction', 'percent'])).toEqual({ scale: 'fraction', strong: false });
    expect(scaleEvidence([100, 0.42], [])).toEqual({ scale: 'percent', strong: true });
    expect(scaleEvidence([1, 0, 1], [])).toBeUndefined();
    const strong: ScaleEvidence = { scale: 'percent', strong: true };
    expect(learnScale(strong, { scale: 'fraction', strong: false })).toBe(strong);
    expect(learnScale({ scale: 'fraction', strong: false }, strong)).toBe(strong);
  });
});

describe('percentage scale: a system that sends ratios', () => {
  const ratios = {
    Volumes: { VolumesHealthInPercentage: 1, HealthyVolumes: 6, UnhealthyVolumes: 0 },
    HardwareResources: { HardwareResourcesHealthInPercentage: 0.9845, UnhealthyResourceCount: { Drive: 1 } },
    HardwareUtilization: { HardwareUtilizationInPercentage: 0.4117, CPUInPercentage: 0.3121, MemoryInPercentage: 0.4117, DriveInPercentage: 0.2 },
  };

  it('reads 1 as 100 % and 0.98 as 98 %, checked against the volume counts: no false critical', () => {
    const s = system();
    const h = s.read(ratios);
    expect(s.scale()).toBe('fraction');
    expect(h.Volumes?.VolumesHealthInPercentage).toBe(100);
    expect(h.HardwareResources?.HardwareResourcesHealthInPercentage).toBe(98.45);
    expect(h.HardwareUtilization?.CPUInPercentage).toBe(31.21);
    const dims = rollupHealth(h).dimensions;
    expect(dims.find((d) => d.name === 'volumes')?.level).toBe('ok');
    expect(dims.find((d) => d.name === 'hardware')?.level).toBe('warning');
  });

  it('keeps a scale learned from sizes for answers that cannot tell it (1 and 0 alone)', () => {
    const s = system();
    s.read(ratios);
    const h = s.read({ Volumes: { VolumesHealthInPercentage: 1 }, HardwareResources: { HardwareResourcesHealthInPercentage: 1 } });
    expect(h.Volumes?.VolumesHealthInPercentage).toBe(100);
    expect(rollupHealth(h).dimensions.find((d) => d.name === 'volumes')?.level).toBe('ok');
  });

  it('reads a pool free share against the pool sizes beside it', () => {
    const s = system();
    const h = s.read({
      CapacityUtilization: {
        PoolCapacity: [{ PoolName: 'hdd-pool', CapacityInBytes: 1000, CapacityUsageInBytes: 700 }],
        PoolCapacityVirtualRaidProvisioning: [{ Name: 'hdd-pool', FreeSpaceInPercentage: 0.3 }],
      },
    });
    expect(s.scale()).toBe('fraction');
    expect(h.CapacityUtilization?.PoolCapacityVirtualRaidProvisioning?.[0]?.FreeSpaceInPercentage).toBe(30);
  });
});

describe('percentage scale: not known', () => {
  it('leaves out a percentage that could be either and says so, neither critical nor ok', () => {
    const s = system();
    const h = s.read({ Volumes: { VolumesHealthInPercentage: 1 }, HardwareUtilization: { HardwareUtilizationInPercentage: 1, CPUInPercentage: 0, MemoryInPercentage: 1 } });
    expect(s.scale()).toBeUndefined();
    expect(h.Volumes?.VolumesHealthInPercentage).toBeUndefined();
    const r = rollupHealth(h);
    expect(r.dimensions.find((d) => d.name === 'volumes')).toMatchObject({ level: 'unknown', text: 'percentage scale not known' });
    expect(r.dimensions.find((d) => d.name === 'utilization')).toMatchObject({ level: 'unknown', text: 'percentage scale not known' });
    expect(r.level).not.toBe('critical');
  });

  it('reads a percent system as sent: a value over 1 says so, and 0.5 % CPU stays 0.5 %', () => {
    const s = system();
    const h = s.read({ Volumes: { VolumesHealthInPercentage: 100 }, HardwareUtilization: { HardwareUtilizationInPercentage: 40, CPUInPercentage: 0.5 } });
    expect(s.scale()).toBe('percent');
    expect(h.HardwareUtilization?.CPUInPercentage).toBe(0.5);
    expect(h.Volumes?.VolumesHealthInPercentage).toBe(100);
  });

  it('without a system (stored answers, tests) takes percentages as sent', () => {
    const r = normaliseAnswer(HEALTH, { Volumes: { VolumesHealthInPercentage: 1 } });
    expect(r.ok && (r.value as Health).Volumes?.VolumesHealthInPercentage).toBe(1);
  });
});
