import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getOperation, type OperationKey } from '../../../app/catalog/index.js';
import type { Site } from '../../../app/domain/site.js';
import { Fleet } from '../../../main/core/fleet.js';
import { ReportService } from '../../../main/reports/service.js';
import { ReportStore } from '../../../main/reports/store.js';
import { openSecretStore } from '../../../main/secrets/secret-store.js';
import { SiteStore, openStores, type ActionLog, type Database } from '../../../main/store/index.js';
import { SimClock, startSimulator, type Dialect, type SimulatorHandle } from '../../../simulator/index.js';

/** The simulator's start time: fixed, so its generated state is the same on every run. */
export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

/** 64 hex digits, as the interface wants an encryption key. */
export const ENCRYPTION_KEY = 'c0ffee42'.repeat(8);

/** Secrets set through the interface before refreshing; none may appear in any export or the data dir. */
export const MARKERS = {
  sitePassword: 'MARKER-site-pw-7',
  userPassword: 'MARKER-user-pw-1',
  hostChap: 'MARKERchap12',
  targetChap: 'MARKERtgtchap1',
  snmpCommunity: 'MARKER-community',
  snmpAuth: 'MARKER-auth-phrase',
  snmpPrivacy: 'MARKER-priv-phrase',
  sedPassword: 'MARKER-sed-pw',
  encryptionKey: ENCRYPTION_KEY,
} as const;

export interface ReportHarness {
  sim: SimulatorHandle;
  dataDir: string;
  db: Database;
  fleet: Fleet;
  sites: SiteStore;
  actionLog: ActionLog;
  reports: ReportService;
  /** The sites as saved, in manifest order. */
  saved: Site[];
  /** A fresh temporary directory, removed on close. */
  tempDir(): string;
  /** Closes the fleet and the database (the data dir stays) so another process can use the data dir alone. */
  release(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A simulator with `sites` × `systems`, a temporary data directory with every site added (secrets
 * in memory only, as with FLEETDECK_KEYCHAIN=memory) and the report service over them, as the CLI
 * and the app wire it (openRuntime is not used: it reads package.json relative to the build).
 */
export async function reportHarness(o: { sites: number; systems: number; realTime?: boolean; dialects?: Dialect[] }): Promise<ReportHarness> {
  // Frozen by default (reproducible state); in real time when another process (the CLI) reads the wall clock.
  const simClock = o.realTime ? new SimClock() : SimClock.frozen(T0);
  const sim = await startSimulator({ sites: o.sites, systems: o.systems, password: MARKERS.sitePassword, controlServer: false, clock: simClock, dialects: o.dialects ?? [] });
  const temps: string[] = [];
  const tempDir = (): string => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-reports-'));
    temps.push(d);
    return d;
  };
  const dataDir = tempDir();
  // The app's clock follows the simulator's: a history range ending past the system's own "now"
  // is refused by the system (it would show predicted values).
  const clock = (): Date => new Date(sim.clock.now());
  const stores = openStores(dataDir, { clock });
  const db = stores.cacheDb;
  const sites = new SiteStore({ dataDir });
  const { actionLog, cache } = stores;
  const fleet = new Fleet({ sites, secrets: await openSecretStore({ disable: true }), cache, actionLog, user: 'report-tester', timeoutMs: 5000, clock });
  const saved: Site[] = [];
  for (const s of sim.manifest.sites) saved.push(await fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password }));
  const reports = new ReportService({ fleet, sites, actionLog, store: new ReportStore(stores.reportsDb), user: 'report-tester', appVersion: '0.0.0-test', clock });
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    await fleet.close();
    stores.close();
  };
  return {
    sim,
    dataDir,
    db,
    fleet,
    sites,
    actionLog,
    reports,
    saved,
    tempDir,
    release,
    close: async () => {
      await release();
      await sim.close();
      for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Writes every marker secret through the fleet (so the action log sees them too) on one system. */
export async function setMarkerSecrets(h: ReportHarness, siteId: string, system: string): Promise<void> {
  const writes: Array<[OperationKey, Record<string, unknown>]> = [
    ['POST /users/create', { Name: 'audit-user', Password: MARKERS.userPassword, Role: 'Viewer', Email: 'audit@example.com' }],
    ['POST /hosts/create', { Name: 'marker-host', Iqn: 'iqn.2024-01.com.example:marker', ChapSecret: MARKERS.hostChap }],
    ['PUT /nodes/chap', { ChapName: 'tgt', ChapSecret: MARKERS.targetChap }],
    [
      'POST /notifications/targets/snmp/add',
      { Ip: '10.1.0.9', TrapVersion: 'v3', V3Username: 'u', V3AuthPhrase: MARKERS.snmpAuth, V3PrivacyPhrase: MARKERS.snmpPrivacy, CommunityString: MARKERS.snmpCommunity, Name: 'marker-trap' },
    ],
    ['PUT /resources/drives/sed/supply_password', { Password: MARKERS.sedPassword }],
    ['PUT /applications/encryption/supply_encryption_key', { Cgid: 1, EncryptionKey: MARKERS.encryptionKey }],
  ];
  for (const [op, body] of writes) await h.fleet.call(siteId, system, getOperation(op), { body });
}

/** Every file under a directory with its bytes (PDFs also as their extracted text: their streams are compressed). */
export function filesUnder(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        out.push({ path: p, text: fs.readFileSync(p).toString('latin1') });
        if (p.endsWith('.pdf')) out.push({ path: `${p} (text)`, text: pdfText(p) });
      }
    }
  };
  walk(dir);
  return out;
}

/** The text of a PDF, by poppler's pdftotext. */
export function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Flips one bit of the byte in the middle of a file. */
export function flipByte(file: string): void {
  const bytes = fs.readFileSync(file);
  const i = Math.floor(bytes.length / 2);
  bytes[i] = (bytes[i] as number) ^ 1;
  fs.writeFileSync(file, bytes);
}
