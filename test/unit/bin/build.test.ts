import { describe, expect, it } from 'vitest';
import { buildEnv } from '../../../bin/build.js';

describe('bin/build.js', () => {
  it("builds without the caller's NODE_ENV, so a start from a test run still makes the production bundle", () => {
    const env = { NODE_ENV: 'test', PATH: '/usr/bin', FLEETDECK_KEYCHAIN: 'memory' };
    expect(buildEnv(env)).toEqual({ PATH: '/usr/bin', FLEETDECK_KEYCHAIN: 'memory' });
    // The caller's environment is left as it was.
    expect(env.NODE_ENV).toBe('test');
  });
});
