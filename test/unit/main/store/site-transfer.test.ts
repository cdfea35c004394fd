import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseMachinePolicy } from '../../../../app/policy/machine-policy.js';
import type { PolicyState } from '../../../../main/policy/machine-policy-file.js';
import { presetToSite } from '../../../../main/policy/machine-policy-file.js';
import { PolicyGuard } from '../../../../main/policy/policy-guard.js';
import { SiteStore } from '../../../../main/store/index.js';
import { exportSiteList, importSiteList, readSiteList } from '../../../../main/store/site-transfer.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const PIN = 'ab'.repeat(32);
const OTHER_PIN = 'cd'.repeat(32);
const NOW = new Date('2026-01-01T00:00:00Z');

function guard(policy: object): PolicyGuard {
  const parsed = parseMachinePolicy(JSON.stringify(policy));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const state: PolicyState = { file: '/etc/fleetdeck/policy.json', status: 'applied', policy: parsed.policy, problems: [], notes: [] };
  if (parsed.policy.readOnly) state.readOnly = parsed.policy.readOnlyReason ?? 'read-only by policy';
  return new PolicyGuard(state);
}

function store(dir = tempDir(), policy?: PolicyGuard): SiteStore {
  return new SiteStore({ dataDir: dir, clock: steppingClock(), ...(policy ? { policy } : {}) });
}

async function seeded(): Promise<SiteStore> {
  const s = store();
  await s.add({ name: 'Lab A', baseUrl: 'https://a.lab.example', username: 'admin', group: 'Lab', tags: ['east', 'tier1'], tls: { pinSha256: PIN }, polling: { intervalSeconds: 600, maxInFlight: 2, smartMaxAgeHours: 12 } });
  await s.add({ name: 'Lab B', baseUrl: 'https://b.lab.example', username: 'admin', tls: { caBundlePem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' } });
  await s.update('lab-a', { auth: { tokenScheme: 'raw', learnedAt: '2025-06-01T00:00:00Z' } });
  return s;
}

const text = (file: unknown): string => JSON.stringify(file);
const noForget = async (): Promise<void> => undefined;

describe('exporting a site list', () => {
  it('keeps pins, CA bundles, groups, tags and polling, and nothing of this workstation (no secret, no login lore, no times)', async () => {
    const s = await seeded();
    const file = exportSiteList(s.list(), { exportedAt: NOW, exportedBy: 'ann' });
    expect(file).toMatchObject({ format: 'fleetdeck-site-list', version: 1, exportedAt: NOW.toISOString(), exportedBy: 'ann' });
    const [a, b] = file.sites as Array<Record<string, unknown>>;
    expect(a).toEqual({ id: 'lab-a', name: 'Lab A', baseUrl: 'https://a.lab.example', username: 'admin', group: 'Lab', tags: ['east', 'tier1'], allowHttp: false, tls: { pinSha256: PIN }, polling: { intervalSeconds: 600, paused: false, maxInFlight: 2, smartMaxAgeHours: 12 } });
    expect((b?.tls as Record<string, unknown>).caBundlePem).toContain('BEGIN CERTIFICATE');
    expect(JSON.stringify(file)).not.toMatch(/auth|createdAt|updatedAt|password/);
  });

  it('round-trips: imported on another workstation, the same sites', async () => {
    const from = await seeded();
    const to = store();
    const plan = await importSiteList(to, 'sites.json', text(exportSiteList(from.list(), { exportedAt: NOW })), { replace: false, dryRun: false, now: NOW, forget: noForget });
    expect(plan.steps.map((x) => x.action)).toEqual(['add', 'add']);
    const strip = (l: ReturnType<SiteStore['list']>) => l.map(({ createdAt: _c, updatedAt: _u, auth: _a, ...rest }) => rest);
    expect(strip(to.list())).toEqual(strip(from.list()));
    // Importing it again changes nothing.
    const again = await importSiteList(to, 'sites.json', text(exportSiteList(from.list(), { exportedAt: NOW })), { replace: false, dryRun: false, now: NOW, forget: noForget });
    expect(again.steps.map((x) => x.action)).toEqual(['unchanged', 'unchanged']);
    expect(again.applied).toBe(false);
  });
});

describe('importing a site list', () => {
  const entry = { id: 'lab-a', name: 'Lab A', baseUrl: 'https://a.lab.example', username: 'admin', group: 'Lab', tags: ['east', 'tier1'], allowHttp: false, tls: { pinSha256: PIN }, polling: { intervalSeconds: 600, paused: false, maxInFlight: 2, smartMaxAgeHours: 12 } };
  const file = (...sites: unknown[]) => text({ format: 'fleetdeck-site-list', version: 1, sites });

  it('refuses a file with any secret-looking field, naming each, and imports nothing', async () => {
    const s = store();
    const bad = file({ ...entry, password: 'hunter2' }, { ...entry, id: 'x', name: 'X', tls: { pinSha256: PIN, privateKey: 'k' } });
    const err = await importSiteList(s, 'team.json', bad, { replace: false, dryRun: false, now: NOW, forget: noForget }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/team\.json is refused: 2 fields look like a secret/);
    expect((err as Error).message).toContain('sites[0].password');
    expect((err as Error).message).toContain('sites[1].tls.privateKey');
    expect((err as Error).message).not.toContain('hunter2');
    expect(s.list()).toEqual([]);
  });

  it('refuses the whole file when any entry is malformed, naming every bad entry, and imports nothing', async () => {
    const s = store();
    const bad = file(
      { ...entry, name: 'Fine', id: 'fine', baseUrl: 'https://fine.example' },
      { ...entry, id: 'two', name: 'Two', baseUrl: 'ftp://x' },
      { ...entry, id: 'three', name: 'Three', polling: { ...entry.polling, maxInFlight: 99 } },
      { ...entry, id: 'four', name: 'Four', colour: 'red' },
      { ...entry, id: 'fine-2', name: 'fine', baseUrl: 'https://dup.example' },
    );
    const err = (await importSiteList(s, 'team.json', bad, { replace: false, dryRun: false, now: NOW, forget: noForget }).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/^team\.json is refused: 4 of its 5 sites are malformed; nothing was imported/);
    for (const label of ['site 2 ("Two")', 'site 3 ("Three")', 'site 4 ("Four")', 'site 5 ("fine")']) expect(err.message).toContain(label);
    expect(err.message).toContain('earlier in the file');
    expect(s.list()).toEqual([]);
    expect(() => readSiteList('x.json', '{"format":"fleetdeck-site-list","version":2,"sites":[]}')).toThrow(/newer Fleetdeck/);
    expect(() => readSiteList('x.json', 'nope')).toThrow(/x\.json is not JSON/);
    expect(() => readSiteList('x.json', '{"version":1,"sites":[]}')).toThrow(/not a Fleetdeck site list/);
  });

  it('names each conflict and skips it, or with replace takes the file\'s version', async () => {
    const s = await seeded();
    const conflicts = file(
      { ...entry, baseUrl: 'https://moved.lab.example' }, // same name, different URL
      { ...entry, id: 'bee', name: 'Bee', baseUrl: 'https://b.lab.example', tls: {} }, // same URL, different name
      { ...entry, id: 'new', name: 'New', baseUrl: 'http://127.0.0.1:9' }, // new
    );
    const dry = await importSiteList(s, 'team.json', conflicts, { replace: false, dryRun: true, now: NOW, forget: noForget });
    expect(dry.steps).toEqual([
      { action: 'skip', name: 'Lab A', local: 'Lab A', conflicts: ['same name, different URL (here https://a.lab.example, in the file https://moved.lab.example)'] },
      { action: 'skip', name: 'Bee', local: 'Lab B', conflicts: ['same URL, different name (here "Lab B")'] },
      { action: 'add', name: 'New', conflicts: [] },
    ]);
    expect(dry.applied).toBe(false);
    expect(s.list().map((x) => x.name)).toEqual(['Lab A', 'Lab B']);

    const done = await importSiteList(s, 'team.json', conflicts, { replace: false, dryRun: false, now: NOW, forget: noForget });
    expect(done.steps.map((x) => x.action)).toEqual(['skip', 'skip', 'add']);
    expect(s.list().map((x) => x.name)).toEqual(['Lab A', 'Lab B', 'New']);

    const forget = vi.fn(async (_id: string) => undefined);
    const replaced = await importSiteList(s, 'team.json', conflicts, { replace: true, dryRun: false, now: NOW, forget });
    expect(replaced.steps.map((x) => x.action)).toEqual(['replace', 'replace', 'unchanged']);
    expect(s.get('lab-a')?.baseUrl).toBe('https://moved.lab.example');
    // A new endpoint: what the old one taught, and its password and sessions, are forgotten.
    expect(s.get('lab-a')?.auth).toBeUndefined();
    expect(s.get('lab-b')?.name).toBe('Bee');
    expect(forget.mock.calls.map((c) => c[0]).sort()).toEqual(['lab-a', 'lab-b']);
  });

  it('names a pin that differs, and settings that differ', async () => {
    const s = await seeded();
    const plan = await importSiteList(s, 'team.json', file({ ...entry, tls: { pinSha256: OTHER_PIN }, tags: ['west'] }), { replace: false, dryRun: true, now: NOW, forget: noForget });
    expect(plan.steps[0]?.conflicts).toEqual([`pin differs (here ${PIN}, in the file ${OTHER_PIN})`, 'settings differ: tags']);
    const forget = vi.fn(async (_id: string) => undefined);
    await importSiteList(s, 'team.json', file({ ...entry, tls: { pinSha256: OTHER_PIN } }), { replace: true, dryRun: false, now: NOW, forget });
    expect(s.get('lab-a')?.tls.pinSha256).toBe(OTHER_PIN);
    expect(forget).toHaveBeenCalledWith('lab-a');
  });

  it('gives a new site whose id is taken here an id of its own', async () => {
    const s = await seeded();
    await importSiteList(s, 'team.json', file({ ...entry, id: 'lab-a', name: 'Elsewhere', baseUrl: 'https://elsewhere.example' }), { replace: false, dryRun: false, now: NOW, forget: noForget });
    expect(s.get('Elsewhere')?.id).toBe('elsewhere');
  });

  it('is all or nothing on disk: a failed commit leaves the list as it was', async () => {
    const dir = tempDir();
    const s = store(dir);
    await s.add({ name: 'Keep', baseUrl: 'http://127.0.0.1:9', username: 'u' });
    fs.chmodSync(dir, 0o700);
    const before = fs.readFileSync(path.join(dir, 'sites.db'));
    const err = await s.replaceList('importing sites', (sites) => ({ sites: [...sites, { ...sites[0]!, id: 'keep-2' }], result: null })).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/already exists/);
    expect(s.list().map((x) => x.name)).toEqual(['Keep']);
    expect(fs.readFileSync(path.join(dir, 'sites.db')).equals(before)).toBe(true);
  });
});

describe('the machine policy in the site list', () => {
  const preset = { id: 'core', name: 'Core', baseUrl: 'https://core.example', username: 'ops', tls: { pinSha256: PIN } };

  it('refuses every change on a read-only workstation, with the reason', async () => {
    const dir = tempDir();
    await store(dir).add({ name: 'Lab', baseUrl: 'http://127.0.0.1:9', username: 'u' });
    const s = store(dir, guard({ readOnly: true, readOnlyReason: 'Audit workstation' }));
    await expect(s.add({ name: 'New', baseUrl: 'http://127.0.0.1:9', username: 'u' })).rejects.toThrow('adding a site is refused: Audit workstation');
    await expect(s.update('lab', { tags: ['x'] })).rejects.toThrow('changing a site is refused: Audit workstation');
    await expect(s.remove('lab')).rejects.toThrow('removing a site is refused: Audit workstation');
    await expect(importSiteList(s, 'f.json', '{"format":"fleetdeck-site-list","version":1,"sites":[]}', { replace: false, dryRun: false, now: NOW, forget: noForget })).rejects.toThrow('importing sites is refused');
    expect(s.list().map((x) => x.name)).toEqual(['Lab']);
  });

  it('adds preset sites as managed: not edited or removed, but paused and resumed', async () => {
    const g = guard({ sites: [preset] });
    const s = store(tempDir(), g);
    expect(await s.applyPresets([presetToSite(preset, NOW.toISOString())])).toEqual([]);
    expect(s.get('core')).toMatchObject({ name: 'Core', tls: { pinSha256: PIN } });
    await expect(s.update('core', { name: 'Mine' })).rejects.toThrow(/site "Core" is managed by your organisation/);
    await expect(s.remove('core')).rejects.toThrow(/managed by your organisation/);
    expect((await s.update('core', { polling: { paused: true } })).polling.paused).toBe(true);
    // Applied again (the next start): kept as it is, the pause included.
    await s.applyPresets([presetToSite(preset, NOW.toISOString())]);
    expect(s.get('core')?.polling.paused).toBe(true);
  });

  it('replaces a stored site with the preset\'s id, and names a preset whose name is taken', async () => {
    const s = store(tempDir(), guard({ sites: [preset] }));
    await s.applyPresets([]);
    const plain = store(tempDir());
    await plain.add({ id: 'core', name: 'Core', baseUrl: 'https://old.example', username: 'me', tls: { pinSha256: OTHER_PIN } });
    await plain.add({ name: 'Taken', baseUrl: 'http://127.0.0.1:9', username: 'u' });
    const managed = new SiteStore({ dataDir: (plain as unknown as { dataDir: string }).dataDir, policy: guard({ sites: [preset, { ...preset, id: 'taken-2', name: 'Taken', baseUrl: 'https://t.example' }] }) });
    const warnings = await managed.applyPresets([presetToSite(preset, ''), presetToSite({ ...preset, id: 'taken-2', name: 'Taken', baseUrl: 'https://t.example' }, '')]);
    expect(managed.get('core')?.baseUrl).toBe('https://core.example');
    expect(warnings).toEqual([expect.stringMatching(/^the machine policy's site "Taken" is not added: a site named "Taken" already exists/)]);
  });

  it('refuses a poll interval below the managed minimum, never on demand', async () => {
    const s = store(tempDir(), guard({ minPollIntervalSeconds: 300 }));
    await expect(s.add({ name: 'Fast', baseUrl: 'http://127.0.0.1:9', username: 'u', polling: { intervalSeconds: 60 } })).rejects.toThrow(/minimum poll interval is managed by your organisation \(at least 300 s/);
    const site = await s.add({ name: 'Ok', baseUrl: 'http://127.0.0.1:9', username: 'u', polling: { intervalSeconds: 0 } });
    await expect(s.update(site.id, { polling: { intervalSeconds: 30 } })).rejects.toThrow(/at least 300 s/);
    const plan = await importSiteList(s, 'f.json', JSON.stringify({ format: 'fleetdeck-site-list', version: 1, sites: [{ id: 'q', name: 'Quick', baseUrl: 'http://127.0.0.1:9', username: 'u', tags: [], allowHttp: false, tls: {}, polling: { intervalSeconds: 10, paused: false, maxInFlight: 4 } }] }), { replace: false, dryRun: false, now: NOW, forget: noForget });
    expect(plan.steps[0]).toMatchObject({ action: 'skip', note: expect.stringMatching(/below the minimum managed by your organisation/) });
  });
});
