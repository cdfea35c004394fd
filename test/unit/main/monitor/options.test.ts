import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../app/errors.js';
import { parseMonitorArgs } from '../../../../main/monitor/options.js';

describe('fleetdeck monitor options', () => {
  it('reads the data dir, the metrics address and its web config, and the secrets file', () => {
    expect(parseMonitorArgs([])).toEqual({ dataDir: undefined, metricsListen: undefined, metricsWebConfig: undefined, secretsFile: undefined });
    expect(parseMonitorArgs(['--data-dir', '/var/lib/fleetdeck', '--metrics-listen', '127.0.0.1:9469', '--metrics-web-config', '/etc/fleetdeck/web.yml', '--secrets-file', '/etc/fleetdeck/secrets.json'])).toEqual({
      dataDir: '/var/lib/fleetdeck',
      metricsListen: '127.0.0.1:9469',
      metricsWebConfig: '/etc/fleetdeck/web.yml',
      secretsFile: '/etc/fleetdeck/secrets.json',
    });
  });

  it.each(['127.0.0.1:9469', '[::1]:9469', ':9469', 'localhost:0', '0.0.0.0:65535', 'monitor.example:80'])('takes %s as a listen address', (listen) => {
    expect(parseMonitorArgs(['--metrics-listen', listen]).metricsListen).toBe(listen);
  });

  it.each(['9469', '127.0.0.1', '127.0.0.1:65536', '127.0.0.1:-1', '::1:9469', '127.0.0.1:94a9', 'http://127.0.0.1:9469'])('refuses %s as a listen address, saying the form', (listen) => {
    expect(() => parseMonitorArgs(['--metrics-listen', listen])).toThrow(/--metrics-listen takes ADDR:PORT/);
  });

  it('refuses an unknown option, an argument, a web config without an address, and an empty path', () => {
    expect(() => parseMonitorArgs(['--interval', '5'])).toThrow(InputError);
    expect(() => parseMonitorArgs(['paris'])).toThrow(InputError);
    expect(() => parseMonitorArgs(['--metrics-web-config', 'web.yml'])).toThrow(/--metrics-web-config configures the endpoint of --metrics-listen/);
    expect(() => parseMonitorArgs(['--data-dir', ' '])).toThrow(/--data-dir needs a path/);
  });
});
