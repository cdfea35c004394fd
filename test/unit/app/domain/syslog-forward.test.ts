import { describe, expect, it } from 'vitest';
import { checkForwardSetting, effectiveForward, parseForwardTarget } from '../../../../app/domain/syslog-forward.js';

describe('syslog forwarding setting', () => {
  it('reads tcp:// and tls:// targets and refuses anything else with the forms accepted', () => {
    expect(parseForwardTarget('tls://logs.example.com:6514')).toEqual({ protocol: 'tls', host: 'logs.example.com', port: 6514 });
    expect(parseForwardTarget('tcp://[::1]:514')).toEqual({ protocol: 'tcp', host: '::1', port: 514 });
    for (const bad of ['udp://h:514', 'tcp://h', 'tcp://h:0', 'tcp://h:70000', 'h:514', 'tcp://h:514/x']) expect(() => parseForwardTarget(bad)).toThrow(/tcp:\/\/HOST:PORT or tls:\/\/HOST:PORT/);
  });

  it('normalises the pin and refuses trust that cannot apply', () => {
    expect(checkForwardSetting({ target: 'tls://h:6514', pinSha256: 'AB:'.repeat(31) + 'AB' })).toEqual({ target: 'tls://h:6514', pinSha256: 'ab'.repeat(32) });
    expect(() => checkForwardSetting({ target: 'tcp://h:514', pinSha256: 'ab'.repeat(32) })).toThrow(/tls:\/\/ targets only/);
    expect(() => checkForwardSetting({ target: 'tls://h:6514', pinSha256: 'xyz' })).toThrow(/not a SHA-256/);
    expect(() => checkForwardSetting({ target: 'tls://h:6514', pinSha256: 'ab'.repeat(32), ca: '-----BEGIN CERTIFICATE-----' })).toThrow(/not both/);
    expect(() => checkForwardSetting({ target: 'tls://h:6514', ca: 'not pem' })).toThrow(/PEM/);
  });

  it('takes the policy over the admin, shown as managed; a policy can force it off', () => {
    const own = { target: 'tcp://a:514' };
    const policy = { target: 'tls://b:6514' };
    expect(effectiveForward(undefined, own)).toEqual({ setting: own, managed: false });
    expect(effectiveForward(policy, own)).toEqual({ setting: policy, managed: true });
    expect(effectiveForward('off', own)).toEqual({ setting: undefined, managed: true });
  });
});
