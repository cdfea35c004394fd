import { DEFAULT_POLL_INTERVAL_SECONDS, isPolled, pollingText } from '../../../../app/domain/polling.js';
import fs from 'node:fs';
import path from 'node:path';
import Libsql from 'libsql';
import { describe, expect, it, vi } from 'vitest';
import { SiteStore, type NewSite } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();

function store(dir = tempDir(), options: Partial<ConstructorParameters<typeof SiteStore>[0]> = {}): SiteStore {
  return new SiteStore({ dataDir: dir, clock: steppingClock(), ...options });
}

const lab: NewSite = { name: 'Lab A', baseUrl: 'https://mgmt.lab.example:8443/api', username: 'admin' };
const PIN = 'AB:'.repeat(31) + 'AB';

describe('SiteStore', () => {
  it('adds a site with defaults and saves it in sites.db, readable by this user only, with no lock or temp file', async () => {
    const dir = tempDir();
    const sites = store(dir);
    const site = await sites.add(lab);
    expect(site).toEqual({
      id: 'lab-a',
      name: 'Lab A',
      baseUrl: 'https://mgmt.lab.example:8443/api',
      username: 'admin',
      tags: [],
      tls: {},
      allowHttp: false,
      // Live by default: a site added without an interval is polled at the light default.
      polling: { intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS, paused: false, maxInFlight: 4 },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(store(dir).list()).toEqual([site]);
    expect(DEFAULT_POLL_INTERVAL_SECONDS).toBe(300);
    expect(isPolled(site.polling)).toBe(true);
    // On demand is a choice the site shows in words.
    expect(pollingText((await sites.update('lab-a', { polling: { intervalSeconds: 0 } })).polling)).toBe('on demand');
    expect(fs.statSync(path.join(dir, 'sites.db')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    // No temp or lock file left behind: only the database (and its WAL while open).
    expect(fs.readdirSync(dir).filter((f) => !/^sites\.db(-wal|-shm)?$/.test(f))).toEqual([]);
  });

  it('lists and finds sites by id or name, whatever the case, as seen by another instance', async () => {
    const dir = tempDir();
    const a = store(dir);
    await a.add(lab);
    await a.add({ name: 'Prod', baseUrl: 'https://prod.example', username: 'ops', tags: ['prod', ' prod ', 'eu'], group: 'Europe' });
    const b = store(dir);
    expect(b.list().map((s) => s.name)).toEqual(['Lab A', 'Prod']);
    expect(b.get('LAB-A')?.name).toBe('Lab A');
    expect(b.get('lab a')?.id).toBe('lab-a');
    expect(b.get('prod')).toMatchObject({ group: 'Europe', tags: ['prod', 'eu'] });
    expect(b.get('nope')).toBeUndefined();
  });

  it('shares one list until a site changes, here or in another instance; a site got or listed is a copy', async () => {
    const dir = tempDir();
    const a = store(dir);
    await a.add(lab);
    const b = store(dir);
    const first = b.shared();
    expect(b.shared()).toBe(first);
    const copy = b.get('lab-a')!;
    copy.name = 'changed by a caller';
    b.list()[0]!.name = 'changed too';
    expect(b.shared().map((s) => s.name)).toEqual(['Lab A']);
    await a.update('lab-a', { name: 'Lab B' });
    expect(b.shared()).not.toBe(first);
    expect(b.shared().map((s) => s.name)).toEqual(['Lab B']);
  });

  it('refuses a duplicate name, case-insensitively, and a name that is another site’s id', async () => {
    const sites = store();
    await sites.add(lab);
    await expect(sites.add({ ...lab, name: 'lab a' })).rejects.toThrow('a site named "Lab A" already exists');
    await expect(sites.add({ ...lab, name: 'LAB-A' })).rejects.toThrow(/already the id of site "Lab A"/);
    expect(sites.list()).toHaveLength(1);
  });

  it('gives a distinct id when the derived one is taken, and refuses a taken explicit id', async () => {
    const sites = store();
    await sites.add(lab);
    expect((await sites.add({ ...lab, name: 'Lab A!' })).id).toBe('lab-a-2');
    await expect(sites.add({ ...lab, name: 'Other', id: 'lab-a' })).rejects.toThrow(/id "lab-a" already exists/);
  });

  it('refuses an invalid name', async () => {
    await expect(store().add({ ...lab, name: ' padded' })).rejects.toThrow(/cannot be empty or start\/end with a space/);
  });

  it('refuses to save a secret-named field, at any depth, and writes nothing', async () => {
    const dir = tempDir();
    const sites = store(dir);
    await expect(sites.add({ ...lab, password: 'MARKER-PW' } as NewSite)).rejects.toThrow(/field "password" is a secret/);
    await expect(sites.add({ ...lab, tls: { ChapSecret: 'MARKER-PW' } } as NewSite)).rejects.toThrow(/field "tls.ChapSecret" is a secret/);
    expect(fs.existsSync(path.join(dir, 'sites.db'))).toBe(false);
    await sites.add(lab);
    await expect(sites.update('lab-a', { Token: 'MARKER-PW' } as never)).rejects.toThrow(/is a secret/);
    sites.close();
    for (const f of fs.readdirSync(dir)) expect(fs.readFileSync(path.join(dir, f)).includes('MARKER-PW'), f).toBe(false);
  });

  it('accepts http only for loopback unless allowed explicitly', async () => {
    const sites = store();
    await expect(sites.add({ ...lab, baseUrl: 'http://mgmt.lab.example' })).rejects.toThrow(/plain http to mgmt.lab.example/);
    expect((await sites.add({ ...lab, name: 'Local', baseUrl: 'http://127.0.0.1:8080' })).baseUrl).toBe('http://127.0.0.1:8080');
    expect((await sites.add({ ...lab, baseUrl: 'http://mgmt.lab.example', allowHttp: true })).allowHttp).toBe(true);
    await expect(sites.update('lab-a', { allowHttp: false })).rejects.toThrow(/plain http/);
  });

  it('refuses URLs that do not parse, are not http(s) or carry credentials', async () => {
    const sites = store();
    await expect(sites.add({ ...lab, baseUrl: 'mgmt.lab.example' })).rejects.toThrow(/is not a URL/);
    await expect(sites.add({ ...lab, baseUrl: 'ftp://mgmt.lab.example' })).rejects.toThrow(/must start with https/);
    await expect(sites.add({ ...lab, baseUrl: 'https://admin:pw@mgmt.lab.example' })).rejects.toThrow(/cannot contain a user name or password/);
  });

  it('updates a site: merges polling, replaces TLS, keeps id and creation time', async () => {
    const sites = store();
    const added = await sites.add(lab);
    const updated = await sites.update('Lab A', { name: 'Lab B', polling: { intervalSeconds: 60 }, tls: { pinSha256: PIN } });
    expect(updated).toMatchObject({ id: 'lab-a', name: 'Lab B', createdAt: added.createdAt, polling: { intervalSeconds: 60, paused: false, maxInFlight: 4 }, tls: { pinSha256: 'ab'.repeat(32) } });
    expect(updated.updatedAt > added.updatedAt).toBe(true);
    expect(sites.get('lab b')).toEqual(updated);
    expect((await sites.update('lab-a', { group: 'g' })).group).toBe('g');
    expect((await sites.update('lab-a', { group: null })).group).toBeUndefined();
  });

  it('keeps a site’s SMART age for background polls; a site without one keeps none (the default applies)', async () => {
    const dir = tempDir();
    const sites = store(dir);
    const added = await sites.add(lab);
    expect(added.polling.smartMaxAgeHours).toBeUndefined();
    const updated = await sites.update('lab-a', { polling: { smartMaxAgeHours: 6 } });
    expect(updated.polling).toEqual({ intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS, paused: false, maxInFlight: 4, smartMaxAgeHours: 6 });
    expect(store(dir).get('lab-a')?.polling.smartMaxAgeHours).toBe(6);
    await expect(sites.update('lab-a', { polling: { smartMaxAgeHours: 0 } })).rejects.toThrow(/SMART age must be a whole number of hours from 1 to 8760/);
    expect(sites.get('lab-a')?.polling.smartMaxAgeHours).toBe(6);
  });

  it('refuses invalid updates with a clear message', async () => {
    const sites = store();
    await sites.add(lab);
    await sites.add({ ...lab, name: 'Prod' });
    await expect(sites.update('prod', { name: 'LAB A' })).rejects.toThrow('a site named "Lab A" already exists');
    await expect(sites.update('prod', { polling: { maxInFlight: 0 } })).rejects.toThrow(/requests in flight must be a whole number from 1/);
    await expect(sites.update('prod', { tls: { pinSha256: 'abc' } })).rejects.toThrow(/SHA-256/);
    await expect(sites.update('prod', { tls: { caBundlePem: '-----BEGIN CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----' } })).rejects.toThrow(/private key/);
    await expect(sites.update('prod', { id: 'x' } as never)).rejects.toThrow(/id of a site cannot be changed/);
    await expect(sites.update('missing', { name: 'x' })).rejects.toThrow('there is no site named "missing"');
  });

  it('stores a URL in one spelling: lowercase scheme and host, no default port, no trailing slash', async () => {
    const sites = store();
    expect((await sites.add({ ...lab, baseUrl: 'HTTPS://MGMT.Lab.Example:443/api/' })).baseUrl).toBe('https://mgmt.lab.example/api');
    expect((await sites.add({ ...lab, name: 'Local', baseUrl: 'HTTP://127.0.0.1:8080/' })).baseUrl).toBe('http://127.0.0.1:8080');
    // An upper-case scheme is plain http all the same.
    await expect(sites.add({ ...lab, name: 'Remote', baseUrl: 'HTTP://mgmt.lab.example' })).rejects.toThrow(/plain http to mgmt.lab.example/);
  });

  it('checks a new site without saving it, so nothing is contacted for a bad one', async () => {
    const dir = tempDir();
    const sites = store(dir);
    expect(sites.check(lab)).toMatchObject({ id: 'lab-a', baseUrl: lab.baseUrl });
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(() => sites.check({ ...lab, name: 'rtl\u202Eevil' })).toThrow(/control or text-direction/);
    expect(() => sites.check({ ...lab, username: 'ad\u202Emin' })).toThrow(/control or text-direction/);
    expect(() => sites.check({ ...lab, tags: ['ok', 'b\u2066ad'] })).toThrow(/control or text-direction/);
  });

  it('drops the pin when the URL moves to another endpoint, keeps it for the same one spelt otherwise', async () => {
    const sites = store();
    await sites.add({ ...lab, tls: { pinSha256: PIN, caBundlePem: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----' } });
    const same = await sites.update('lab-a', { baseUrl: 'HTTPS://mgmt.lab.example:8443/api/' });
    expect(same.tls.pinSha256).toBe('ab'.repeat(32));
    const moved = await sites.update('lab-a', { baseUrl: 'https://other.lab.example:8443/api' });
    expect(moved.tls).toEqual({ caBundlePem: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----' });
  });

  it('removes a site', async () => {
    const sites = store();
    await sites.add(lab);
    await sites.add({ ...lab, name: 'Prod' });
    expect((await sites.remove('LAB A')).id).toBe('lab-a');
    expect(sites.list().map((s) => s.id)).toEqual(['prod']);
    await expect(sites.remove('lab-a')).rejects.toThrow(/there is no site named "lab-a"/);
  });

  it('loses nothing when two instances on one directory add many sites concurrently', async () => {
    const dir = tempDir();
    const a = store(dir);
    const b = store(dir);
    const names = Array.from({ length: 30 }, (_, i) => `site ${i}`);
    const added = await Promise.all(names.map((name, i) => (i % 2 ? a : b).add({ ...lab, name })));
    expect(new Set(added.map((s) => s.id)).size).toBe(names.length);
    expect(store(dir).list().map((s) => s.name).sort()).toEqual([...names].sort());
    expect(fs.readdirSync(dir).filter((f) => !/^sites\.db(-wal|-shm)?$/.test(f))).toEqual([]);
  });

  it('sees another instance\'s change at once, and a refused change leaves the list as it was', async () => {
    const dir = tempDir();
    const a = store(dir);
    const b = store(dir);
    expect(b.list()).toEqual([]);
    await a.add(lab);
    expect(b.get('lab a')?.id).toBe('lab-a');
    await expect(b.add({ ...lab, baseUrl: 'https://other.example' })).rejects.toMatchObject({ code: 'conflict' });
    await b.update('lab-a', { polling: { paused: true } });
    expect(a.get('lab-a')?.polling.paused).toBe(true);
    expect(a.list()).toHaveLength(1);
  });

  // Every background poll of a site read and validated the whole site list three times.
  it('reads the stored list again only after a commit, its own or another instance\'s, and hands out copies', async () => {
    const dir = tempDir();
    const a = store(dir);
    const b = store(dir);
    await a.add(lab);
    const reads = vi.spyOn(SiteStore.prototype as unknown as { read(db: unknown): unknown }, 'read');
    try {
      const first = a.list();
      expect(a.list()).toEqual(first);
      expect(a.get('lab-a')?.name).toBe('Lab A');
      expect(reads).toHaveBeenCalledTimes(1);
      // A copy: changing it changes nothing the store holds.
      first[0]!.name = 'changed';
      expect(a.list()[0]?.name).toBe('Lab A');
      await b.update('lab-a', { polling: { intervalSeconds: 60 } });
      expect(a.list()[0]?.polling.intervalSeconds).toBe(60);
      await a.update('lab-a', { polling: { intervalSeconds: 120 } });
      expect(a.list()[0]?.polling.intervalSeconds).toBe(120);
      expect(b.list()[0]?.polling.intervalSeconds).toBe(120);
      const counted = reads.mock.calls.length;
      a.list();
      b.list();
      expect(reads).toHaveBeenCalledTimes(counted);
    } finally {
      reads.mockRestore();
    }
  });

  it('imports sites.json once, every field as it was, and renames it aside rather than deleting it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'sites.json');
    const old = {
      id: 'paris',
      name: 'Paris',
      baseUrl: 'https://paris.example/api',
      username: 'admin',
      group: 'Europe',
      tags: ['prod', 'tier-1'],
      tls: { pinSha256: 'ab'.repeat(32), pinnedCertPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' },
      allowHttp: false,
      polling: { intervalSeconds: 300, paused: true, maxInFlight: 2 },
      auth: { tokenScheme: 'raw', learnedAt: '2024-06-01T10:00:00.000Z' },
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-06-01T10:00:00.000Z',
    };
    const lyon = { ...old, id: 'lyon', name: 'Lyon', group: undefined, auth: undefined, tls: {}, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 } };
    const text = `${JSON.stringify({ version: 1, sites: [old, lyon] }, null, 2)}\n`;
    fs.writeFileSync(file, text, { mode: 0o600 });
    const first = store(dir);
    expect(first.list()).toEqual([old, JSON.parse(JSON.stringify(lyon))]);
    expect(fs.existsSync(file)).toBe(false);
    const aside = fs.readdirSync(dir).filter((f) => f.startsWith('sites.json.imported-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, aside[0] as string), 'utf8')).toBe(text);
    // Imported once: a change after the import is kept by the next instance.
    await first.remove('lyon');
    expect(store(dir).list().map((s) => s.id)).toEqual(['paris']);
    expect(store(dir).get('paris')?.auth).toEqual({ tokenScheme: 'raw', learnedAt: '2024-06-01T10:00:00.000Z' });
  });

  it('tells what it imported, from where and under which name the file was set aside, until the admin dismisses it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'sites.json');
    const site = { id: 'paris', name: 'Paris', baseUrl: 'https://paris.example', username: 'admin', tags: [], tls: {}, allowHttp: false, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
    fs.writeFileSync(file, JSON.stringify({ version: 1, sites: [site, { ...site, id: 'lyon', name: 'Lyon' }] }));
    const first = store(dir, { clock: steppingClock('2026-03-04T05:06:07.000Z') });
    expect(first.importNotice()).toEqual({
      kind: 'imported',
      file,
      sites: 2,
      renamedTo: 'sites.json.imported-20260304T050607Z',
      message: `2 sites were imported from ${file} (renamed to sites.json.imported-20260304T050607Z).`,
    });
    expect(fs.existsSync(path.join(dir, 'sites.json.imported-20260304T050607Z'))).toBe(true);
    // Another instance (a window per site) tells the same, until one of them is dismissed.
    const second = store(dir);
    expect(second.importNotice()?.message).toBe(first.importNotice()?.message);
    second.dismissImportNotice();
    expect(first.importNotice()).toBeUndefined();
    expect(store(dir).importNotice()).toBeUndefined();
    expect(store(dir).list().map((s) => s.id)).toEqual(['paris', 'lyon']);
  });

  it('tells nothing when there was no sites.json', async () => {
    const dir = tempDir();
    const s = store(dir);
    expect(s.importNotice()).toBeUndefined();
    await s.add(lab);
    expect(s.importNotice()).toBeUndefined();
    s.dismissImportNotice();
    expect(s.importNotice()).toBeUndefined();
  });

  it('reports a damaged or newer sites.json, imports nothing and leaves it untouched', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'sites.json');
    fs.writeFileSync(file, '{ "version": 1, "sites": [ ');
    // The list reads as empty (the window opens), and says what is wrong with which file.
    const damaged = store(dir);
    expect(damaged.list()).toEqual([]);
    expect(damaged.importNotice()).toEqual({ kind: 'not-imported', file, message: expect.stringMatching(/not imported: .*sites\.json is not valid JSON.*nothing was imported.*left as it was \(nothing is lost\)/) });
    await expect(damaged.add(lab)).rejects.toMatchObject({ code: 'store', reason: 'damaged' });
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "version": 1, "sites": [ ');
    expect(fs.readdirSync(dir)).toEqual(['sites.json']);
    // Dismissed for this run only: the file is still not imported, and the next start says so again.
    damaged.dismissImportNotice();
    expect(damaged.importNotice()).toBeUndefined();
    expect(store(dir).importNotice()?.kind).toBe('not-imported');
    fs.writeFileSync(file, '{ "version": 2, "sites": [] }');
    expect(store(dir).importNotice()?.message).toMatch(/newer Fleetdeck/);
    fs.writeFileSync(file, '{ "version": 1, "sites": [{ "name": "x" }] }');
    expect(store(dir).importNotice()?.message).toMatch(/not a valid site list: 1 of its 1 sites .*\n {2}- site 1: id: /);
    expect(fs.readdirSync(dir)).toEqual(['sites.json']);
    // Fixed: imported at the next reading, and told.
    fs.writeFileSync(file, '{ "version": 1, "sites": [] }');
    const fixed = store(dir);
    expect(fixed.list()).toEqual([]);
    expect(fixed.importNotice()?.message).toMatch(/^0 sites were imported from /);
  });

  it('imports sites.json only when site add would accept every site in it, naming each refused one', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'sites.json');
    const good = { id: 'paris', name: 'Paris', baseUrl: 'https://paris.example', username: 'admin', tags: [], tls: {}, allowHttp: false, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
    const bad = [
      { ...good, id: '../../escape', name: 'Escape' },
      { ...good, id: 'bidi', name: 'sysB\u202e\u001b[2Jok' },
      { ...good, id: 'script', name: 'Script', baseUrl: 'javascript:alert(1)' },
      { ...good, id: 'plain', name: 'Plain', baseUrl: 'http://storage.example' },
      { ...good, id: 'pin', name: 'Pin', tls: { pinSha256: 'abc' } },
      { ...good, id: 'greedy', name: 'Greedy', polling: { intervalSeconds: 0, paused: false, maxInFlight: 100000 } },
      { ...good, id: 'paris', name: 'Paris again' },
      { ...good, id: 'secret', name: 'Secret', password: 'hunter2' },
    ];
    const text = JSON.stringify({ version: 1, sites: [good, ...bad, { ...good, id: 'lyon', name: 'Lyon', baseUrl: 'http://127.0.0.1:8443' }] });
    fs.writeFileSync(file, text);
    const s = store(dir);
    // Nothing imported, not even the good sites: the file is left as it was and the list reads as empty.
    expect(s.list()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['sites.json']);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    await expect(s.add(lab)).rejects.toMatchObject({ reason: 'damaged' });
    const message = s.importNotice()?.message ?? '';
    expect(message).toMatch(/8 of its 10 sites would be refused by "site add"/);
    const lines = message.split('\n').slice(1);
    expect(lines).toHaveLength(8);
    expect(lines[0]).toMatch(/^ {2}- site 2 \(id "\.\.\/\.\.\/escape"\): .*not a valid site id/);
    expect(lines[1]).toMatch(/^ {2}- site 3 \(id "bidi"\): .*control or text-direction characters/);
    // The refused name is shown escaped, never with its own bidi or escape characters.
    expect(lines[1]).toContain('\\u{202e}');
    expect(message).not.toContain('\u001b');
    expect(message).not.toContain('\u202e');
    expect(lines[2]).toMatch(/^ {2}- site 4 \(id "script"\): .*must start with https:\/\//);
    expect(lines[3]).toMatch(/^ {2}- site 5 \(id "plain"\): .*plain http to storage\.example/);
    expect(lines[4]).toMatch(/^ {2}- site 6 \(id "pin"\): .*SHA-256 \(64 hex digits\)/);
    expect(lines[5]).toMatch(/^ {2}- site 7 \(id "greedy"\): .*requests in flight must be a whole number from 1 to 64/);
    expect(lines[6]).toMatch(/^ {2}- site 8 \(id "paris"\): a site with id "paris" already exists \("Paris"\) earlier in the file/);
    expect(lines[7]).toMatch(/^ {2}- site 9 \(id "secret"\): .*"password" is a secret/);
    // Fixed: imported whole, as site add would have stored each site.
    fs.writeFileSync(file, JSON.stringify({ version: 1, sites: [good, { ...good, id: 'lyon', name: 'Lyon', baseUrl: 'HTTP://127.0.0.1:8443/' }] }));
    expect(store(dir).list().map((x) => [x.id, x.baseUrl])).toEqual([['paris', 'https://paris.example'], ['lyon', 'http://127.0.0.1:8443']]);
  });

  it('refuses a site id too long for a folder name, in sites.json and when adding, naming it shortened', async () => {
    const dir = tempDir();
    const long = 'a'.repeat(300);
    const good = { id: 'paris', name: 'Paris', baseUrl: 'https://paris.example', username: 'admin', tags: [], tls: {}, allowHttp: false, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
    fs.writeFileSync(path.join(dir, 'sites.json'), JSON.stringify({ version: 1, sites: [good, { ...good, id: long, name: 'Long' }] }));
    const s = store(dir);
    expect(s.list()).toEqual([]);
    const message = s.importNotice()?.message ?? '';
    expect(message).toMatch(/1 of its 2 sites would be refused/);
    expect(message).toContain(`site 2 (id "${'a'.repeat(40)}…"): "${'a'.repeat(24)}…" is not a valid site id: at most 80 characters (it has 300)`);
    expect(message).not.toContain('a'.repeat(41));
    const fresh = store(tempDir());
    await expect(fresh.add({ id: 'b'.repeat(81), name: 'B', baseUrl: 'https://b.example', username: 'admin' })).rejects.toThrow(/at most 80 characters/);
    expect((await fresh.add({ id: 'b'.repeat(80), name: 'B', baseUrl: 'https://b.example', username: 'admin' })).id).toBe('b'.repeat(80));
  });

  it('hands out copies of the sites it read before, and validates a row again once its stored text changed', async () => {
    // A start reads the list once per site: a row read before is not parsed again, but each reader gets its own copy.
    const dir = tempDir();
    const sites = store(dir);
    await sites.add(lab);
    const first = sites.list()[0]!;
    first.name = 'changed by a reader';
    first.polling.paused = true;
    expect(sites.list()[0]).toMatchObject({ name: 'Lab A', polling: { paused: false } });
    expect(sites.get('lab-a')).not.toBe(sites.get('lab-a'));

    // Another writer damages the row: the new text is validated, and reported, not served from before.
    const raw = new Libsql(path.join(dir, 'sites.db'));
    raw.prepare('UPDATE sites SET site = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(JSON.stringify(first)), name: 'Lab A', baseUrl: 42 }), 'lab-a');
    raw.close();
    expect(() => sites.list()).toThrow(/site "lab-a" is damaged/);
  });

  it('reports a damaged sites.db, naming it, and never replaces it with an empty list', async () => {
    const dir = tempDir();
    const sites = store(dir);
    await sites.add(lab);
    sites.close();
    const file = path.join(dir, 'sites.db');
    fs.writeFileSync(file, 'not a database at all, but the admin\'s sites were here');
    expect(() => store(dir).list()).toThrow(/sites\.db.*restore sites\.db from a backup/);
    await expect(store(dir).add({ ...lab, name: 'Other' })).rejects.toMatchObject({ code: 'store' });
    expect(fs.readFileSync(file, 'utf8')).toBe('not a database at all, but the admin\'s sites were here');
  });
});
