import { describe, expect, it } from 'vitest';
import { ManagedError } from '../../../../app/errors.js';
import { metricsInForce } from '../../../../main/monitor/monitor.js';
import { PolicyGuard } from '../../../../main/policy/policy-guard.js';

const FILE = '/etc/fleetdeck/policy.json';
const managed = { policy: new PolicyGuard({ file: FILE, status: 'applied', policy: { metrics: { listen: '127.0.0.1:9469', webConfigFile: '/etc/fleetdeck/web.yml' } }, problems: [], notes: [] }) };
const unmanaged = { policy: new PolicyGuard() };

describe('the metrics endpoint in force', () => {
  it('is the options\' without a policy, and none without --metrics-listen', () => {
    expect(metricsInForce(unmanaged, {})).toBeUndefined();
    expect(metricsInForce(unmanaged, { metricsListen: ':9852', metricsWebConfig: 'web.yml' })).toEqual({ listen: ':9852', webConfigFile: 'web.yml' });
  });

  it('is the policy\'s when it sets one, with or without the same options', () => {
    const forced = { listen: '127.0.0.1:9469', webConfigFile: '/etc/fleetdeck/web.yml' };
    expect(metricsInForce(managed, {})).toEqual(forced);
    expect(metricsInForce(managed, { metricsListen: '127.0.0.1:9469' })).toEqual(forced);
  });

  it('refuses options that ask for another endpoint than the policy\'s, naming the policy', () => {
    expect(() => metricsInForce(managed, { metricsListen: '0.0.0.0:9469' })).toThrow(ManagedError);
    expect(() => metricsInForce(managed, { metricsWebConfig: '/tmp/mine.yml' })).toThrow(/managed by your organisation \(machine policy \/etc\/fleetdeck\/policy\.json\)/);
  });
});
