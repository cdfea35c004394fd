import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMachinePolicy, policyJsonSchema, problemText, type PolicyParse } from '../../../../app/policy/machine-policy.js';

const PIN = 'ab'.repeat(32);
const site = { id: 'lab', name: 'Lab', baseUrl: 'https://lab.example:8443', username: 'auditor', tls: { pinSha256: PIN } };

function problems(policy: unknown): string[] {
  const r: PolicyParse = parseMachinePolicy(typeof policy === 'string' ? policy : JSON.stringify(policy));
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.policy)}`);
  return r.problems.map(problemText);
}

function accepted(policy: unknown) {
  const r = parseMachinePolicy(JSON.stringify(policy));
  if (!r.ok) throw new Error(r.problems.map(problemText).join('; '));
  return r.policy;
}

describe('the machine policy file', () => {
  it('accepts each field alone, and all of them together', () => {
    expect(accepted({ version: 1 })).toEqual({ version: 1 });
    // The first policy files named only the update feed, without a version.
    expect(accepted({ updateUrl: 'https://updates.example.corp/fleetdeck' }).updateUrl).toBe('https://updates.example.corp/fleetdeck');
    expect(accepted({ version: 1, readOnly: true, readOnlyReason: 'Audit workstation' })).toMatchObject({ readOnly: true, readOnlyReason: 'Audit workstation' });
    expect(accepted({ version: 1, minPollIntervalSeconds: 600 }).minPollIntervalSeconds).toBe(600);
    expect(accepted({ version: 1, syslog: { target: 'collector.example:6514', transport: 'tls', pinSha256: PIN } }).syslog).toEqual({ target: 'collector.example:6514', transport: 'tls', pinSha256: PIN });
    expect(accepted({ version: 1, syslog: { target: '[::1]:514', transport: 'tcp' } }).syslog?.target).toBe('[::1]:514');
    expect(accepted({ version: 1, metrics: { listen: '127.0.0.1:9469', webConfigFile: '/etc/fleetdeck/web.yml' } }).metrics).toEqual({ listen: '127.0.0.1:9469', webConfigFile: '/etc/fleetdeck/web.yml' });
    expect(accepted({ version: 1, sites: [site, { id: 'plain', name: 'Plain', baseUrl: 'http://127.0.0.1:9', username: 'u', polling: { intervalSeconds: 900, maxInFlight: 2 } }] }).sites).toHaveLength(2);
    const all = accepted({
      version: 1,
      readOnly: false,
      sites: [site],
      minPollIntervalSeconds: 60,
      updateUrl: 'https://updates.example.corp/',
      syslog: { target: 'collector:6514' },
      metrics: { listen: '127.0.0.1:9469' },
    });
    expect(Object.keys(all).sort()).toEqual(['metrics', 'minPollIntervalSeconds', 'readOnly', 'sites', 'syslog', 'updateUrl', 'version']);
  });

  it('names bad JSON, a file that is not an object, and a newer format', () => {
    expect(problems('{"version": 1,')).toEqual([expect.stringMatching(/^top level: not JSON/)]);
    expect(problems('[]')).toEqual(['top level: must be a JSON object']);
    expect(problems({ version: 2 })).toEqual([expect.stringMatching(/^version: format 2 is newer/)]);
  });

  it('names an unknown field at any depth', () => {
    expect(problems({ version: 1, readonly: true })).toEqual(['readonly: unknown field']);
    expect(problems({ version: 1, syslog: { target: 'c:514', port: 514 } })).toEqual(['syslog.port: unknown field']);
    expect(problems({ version: 1, sites: [{ ...site, colour: 'red' }] })).toEqual(['sites[0].colour: unknown field']);
  });

  it('names each wrong type', () => {
    const p = problems({ version: 1, readOnly: 'yes', minPollIntervalSeconds: '60', sites: {}, updateUrl: 42, syslog: 'c:514', metrics: { listen: 9469 } });
    for (const field of ['readOnly', 'minPollIntervalSeconds', 'sites', 'updateUrl', 'syslog', 'metrics.listen']) expect(p.some((x) => x.startsWith(`${field}: `)), field).toBe(true);
    expect(p).toHaveLength(6);
  });

  it('names each value out of range', () => {
    expect(problems({ version: 1, minPollIntervalSeconds: 0 })[0]).toMatch(/^minPollIntervalSeconds: /);
    expect(problems({ version: 1, minPollIntervalSeconds: 86_401 })[0]).toMatch(/^minPollIntervalSeconds: /);
    expect(problems({ version: 1, minPollIntervalSeconds: 1.5 })[0]).toMatch(/^minPollIntervalSeconds: /);
    expect(problems({ version: 1, syslog: { target: 'collector:70000' } })).toEqual(['syslog.target: the port must be from 1 to 65535']);
    expect(problems({ version: 1, metrics: { listen: 'localhost' } })).toEqual(['metrics.listen: must be HOST:PORT (an IPv6 address in brackets)']);
    expect(problems({ version: 1, metrics: { listen: '127.0.0.1:9469', webConfigFile: 'web.yml' } })).toEqual(['metrics.webConfigFile: must be an absolute path']);
    expect(problems({ version: 1, syslog: { target: 'c:514', transport: 'udp' } })[0]).toMatch(/^syslog.transport: /);
    expect(problems({ version: 1, updateUrl: 'http://updates.example.corp/' })).toEqual([expect.stringMatching(/^updateUrl: must be https/)]);
    expect(problems({ version: 1, sites: [{ ...site, polling: { maxInFlight: 65 } }] })[0]).toMatch(/^sites\[0\]\.polling\.maxInFlight: /);
    expect(problems({ version: 1, sites: [{ ...site, id: 'Lab/..' }] })[0]).toMatch(/^sites\[0\]\.id: must be lowercase/);
    expect(problems({ version: 1, sites: [{ ...site, tls: { pinSha256: 'abc' } }] })[0]).toMatch(/^sites\[0\]\.tls\.pinSha256: must be a SHA-256/);
    expect(problems({ version: 1, readOnlyReason: '' })[0]).toMatch(/^readOnlyReason: /);
  });

  it('refuses a secret anywhere, naming each field, and never repeats its value', () => {
    const p = problems({ version: 1, sites: [{ ...site, password: 'hunter2' }], syslog: { target: 'c:514', token: 'abc' } });
    expect(p).toEqual([expect.stringMatching(/^sites\[0\]\.password: looks like a secret/), expect.stringMatching(/^syslog\.token: looks like a secret/)]);
    expect(p.join(' ')).not.toContain('hunter2');
    expect(problems({ version: 1, metrics: { listen: '127.0.0.1:1', basicAuthPassword: 'x' } })[0]).toMatch(/^metrics\.basicAuthPassword: looks like a secret/);
  });

  it('refuses preset sites that clash with each other, and an https preset without trust', () => {
    expect(problems({ version: 1, sites: [site, { ...site, id: 'lab-2' }] })).toEqual([expect.stringMatching(/^sites\[1\]: its id or name "lab" is already used by sites\[0\]/)]);
    expect(problems({ version: 1, sites: [{ ...site, tls: {} }] })).toEqual([expect.stringMatching(/^sites\[0\]\.tls: an https site IT presets is trusted by its pin/)]);
    expect(problems({ version: 1, syslog: { target: 'c:514', transport: 'tcp', pinSha256: PIN } })).toEqual([expect.stringMatching(/^syslog\.transport: a pin or CA is given/)]);
  });

  it('reports every problem of the file, not the first one only', () => {
    expect(problems({ version: 1, readOnly: 1, minPollIntervalSeconds: -1, surprise: true })).toHaveLength(3);
  });

  it('publishes its JSON Schema, generated from the parser\'s schema', () => {
    const file = JSON.parse(readFileSync(new URL('../../../../app/policy/policy.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(JSON.parse(JSON.stringify(policyJsonSchema())));
    expect((file as { additionalProperties?: unknown }).additionalProperties).toBe(false);
  });
});
