import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { effectiveInterval } from '../../../../app/domain/polling.js';
import { parseMachinePolicy } from '../../../../app/policy/machine-policy.js';
import { Fleet } from '../../../../main/core/fleet.js';
import { PolicyGuard } from '../../../../main/policy/policy-guard.js';
import { openSecretStore } from '../../../../main/secrets/secret-store.js';
import { SiteStore, openStores } from '../../../../main/store/index.js';
import { FakeTimers } from './fake-timers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function minimum(seconds: number): PolicyGuard {
  const parsed = parseMachinePolicy(JSON.stringify({ minPollIntervalSeconds: seconds }));
  if (!parsed.ok) throw new Error('bad test policy');
  return new PolicyGuard({ file: '/etc/fleetdeck/policy.json', status: 'applied', policy: parsed.policy, problems: [], notes: [] });
}

describe('the minimum poll interval of the machine policy', () => {
  it('raises shorter intervals to the minimum and leaves on demand and longer ones alone', () => {
    expect(effectiveInterval(30, 300)).toBe(300);
    expect(effectiveInterval(0, 300)).toBe(0);
    expect(effectiveInterval(900, 300)).toBe(900);
    expect(effectiveInterval(30, undefined)).toBe(30);
  });

  it('polls a site saved with a shorter interval at the minimum', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-policy-poll-'));
    dirs.push(dir);
    const before = new SiteStore({ dataDir: dir });
    const site = await before.add({ name: 'Fast', baseUrl: 'http://127.0.0.1:9', username: 'u', polling: { intervalSeconds: 30 } });
    before.close();
    const timers = new FakeTimers();
    const stores = openStores(dir);
    const sites = new SiteStore({ dataDir: dir, policy: minimum(300) });
    const fleet = new Fleet({ sites, secrets: await openSecretStore({ disable: true }), cache: stores.cache, actionLog: stores.actionLog, user: 't', timers, clock: () => new Date(timers.now()), random: () => 0.5 });
    try {
      fleet.startPolling();
      const due = fleet.nextPollAt(site.id);
      expect(due).toBeDefined();
      // Jitter is ±10 %: due within 270-330 s, never at the stored 30 s.
      expect((due ?? 0) - timers.now()).toBeGreaterThanOrEqual(270_000);
      expect(sites.get(site.id)?.polling.intervalSeconds).toBe(30);
    } finally {
      await fleet.close();
      stores.close();
      sites.close();
    }
  });
});
