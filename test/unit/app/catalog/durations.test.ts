import { describe, expect, it } from 'vitest';
import { announcedRunTime, MAX_DERIVED_TIMEOUT_MS, timeoutForRun } from '../../../../app/catalog/durations.js';

describe('run times operations announce', () => {
  it('a node utility runs up to its timeoutSeconds (default 10, at most an hour), as number or text', () => {
    expect(announcedRunTime('GET /nodes/utils/run', { utility: 'uptime' })).toEqual({ ms: 10_000, why: 'timeoutSeconds 10' });
    expect(announcedRunTime('GET /nodes/utils/run', { timeoutSeconds: 3600 })?.ms).toBe(3_600_000);
    expect(announcedRunTime('GET /nodes/utils/run', { TIMEOUTSECONDS: '900' })?.ms).toBe(900_000);
    expect(announcedRunTime('GET /nodes/utils/run', { timeoutSeconds: 99_999 })?.ms).toBe(3_600_000);
  });

  it('the analyzer runs its four tests per drive for iterationTimeInSeconds each', () => {
    expect(announcedRunTime('GET /resources/drives/performance_analyzer', { driveIds: [1, 2], iterationTimeInSeconds: 30 })).toEqual({ ms: 240_000, why: '30 s × 4 tests × 2 drives' });
    expect(announcedRunTime('GET /resources/drives/performance_analyzer', { driveIds: 7 })?.ms).toBe(40_000);
    // "all" counts the drives the caller knows of; unknown, it is the longest a timeout may be.
    expect(announcedRunTime('GET /resources/drives/performance_analyzer', { all: true }, 24)?.ms).toBe(960_000);
    expect(announcedRunTime('GET /resources/drives/performance_analyzer', { all: true })?.ms).toBe(MAX_DERIVED_TIMEOUT_MS);
  });

  it('other operations announce nothing', () => {
    // Keyed by OperationKey: a misspelt key fails the typecheck instead of announcing nothing.
    // @ts-expect-error not an operation of the catalog
    expect(announcedRunTime('GET /nodes/util/run', { timeoutSeconds: 600 })).toBeUndefined();
    expect(announcedRunTime('GET /hosts/list', { timeoutSeconds: 600 })).toBeUndefined();
  });

  it('a timeout is the run time plus 10 %, at least 30 s, at most four hours', () => {
    expect(timeoutForRun({ ms: 10_000, why: '' })).toBe(40_000);
    expect(timeoutForRun({ ms: 3_600_000, why: '' })).toBe(3_960_000);
    expect(timeoutForRun({ ms: MAX_DERIVED_TIMEOUT_MS, why: '' })).toBe(MAX_DERIVED_TIMEOUT_MS);
  });
});
