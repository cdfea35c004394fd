import { afterEach, describe, expect, it } from 'vitest';
import { SECURE_BASELINE } from '../../../../app/compliance/secure-baseline.js';
import type { Site } from '../../../../app/domain/site.js';
import { refreshRead } from '../../../../app/fleet/refresh-plan.js';
import { evaluateFleet } from '../../../../main/compliance/fleet-compliance.js';
import { OfflineCache, cacheKey, openDatabase, type Database } from '../../../../main/store/index.js';
import { useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

const USERS = cacheKey('GET /users/list', refreshRead('GET /users/list').query);
const site = (id: string, name: string, extra: Partial<Site> = {}): Site => ({ id, name, tags: [], ...extra }) as Site;
const NOW = new Date('2026-03-01T12:00:00Z');

function setup(): { db: Database; cache: OfflineCache } {
  const db = openDatabase(tempDir());
  open.push(db);
  return { db, cache: new OfflineCache({ db }) };
}

describe('evaluateFleet', () => {
  it('evaluates each cached system of the chosen sites from the cache, sorted, and no site-level entry', () => {
    const { cache } = setup();
    const users = { Data: [{ Name: 'admin', TwoStepAuthenticationEnabled: false }] };
    cache.put('s1', 'beta', USERS, users, '2026-03-01T11:00:00.000Z');
    cache.put('s1', 'alpha', USERS, { Data: [{ Name: 'admin', TwoStepAuthenticationEnabled: true }] }, '2026-03-01T11:00:00.000Z');
    cache.put('s1', '', 'GET /systems/list', { Data: [] }, '2026-03-01T11:00:00.000Z');
    cache.put('s2', 'gamma', USERS, users, '2026-03-01T11:00:00.000Z');
    const sites = [site('s1', 'north'), site('s2', 'south')];

    const all = evaluateFleet({ baseline: SECURE_BASELINE, cache, sites, now: NOW });
    expect(all.map((s) => `${s.site}/${s.system}`)).toEqual(['north/alpha', 'north/beta', 'south/gamma']);
    const twoStep = (i: number) => all[i]!.checks.find((c) => c.id === 'users-two-step')!;
    expect(twoStep(0).result).toBe('pass');
    expect(twoStep(1)).toMatchObject({ result: 'fail', evidence: { op: 'GET /users/list', ageSeconds: 3600 } });
    // What was never cached cannot tell.
    expect(all[0]!.checks.find((c) => c.id === 'pool-free-space')!.result).toBe('cannot-tell');
    expect(all[0]!.counts).toMatchObject({ pass: 1, fail: 0 });

    const south = evaluateFleet({ baseline: SECURE_BASELINE, cache, sites, siteIds: new Set(['s2']), now: NOW });
    expect(south.map((s) => s.system)).toEqual(['gamma']);
  });

  it('cannot tell from a cached answer damaged on disk', () => {
    const { db, cache } = setup();
    cache.put('s1', 'alpha', USERS, { Data: [] }, '2026-03-01T11:00:00.000Z');
    db.prepare('UPDATE cache_entries SET value = ? WHERE key = ?').run('{"Data": [', USERS);
    // Another process's cache (this one keeps its last write in memory).
    const [alpha] = evaluateFleet({ baseline: SECURE_BASELINE, cache: new OfflineCache({ db }), sites: [site('s1', 'north')], now: NOW });
    const check = alpha!.checks.find((c) => c.id === 'users-two-step')!;
    expect(check.result).toBe('cannot-tell');
    expect(check.reason).toMatch(/cannot be read: .*damaged/);
  });
});
