import { describe, expect, it } from 'vitest';
import { driveLevel } from '../../../../app/health/states.js';
import { statusTone } from '../../../../renderer/lib/hardware-status.js';

describe('a resource status’s tone', () => {
  it('is the level the tree and the reports give the same status', () => {
    for (const status of ['OK', 'Missing', 'Failed', 'Degraded', 'Warning', 'PredictiveFailure']) expect(statusTone(status), status).toBe(driveLevel({ ResourceStatus: status }));
    // Words of other enumerations keep their tone: links and nodes.
    expect(statusTone('LinkDown')).toBe('critical');
    expect(statusTone('Running')).toBe('ok');
    expect(statusTone(undefined)).toBe('muted');
  });
});
