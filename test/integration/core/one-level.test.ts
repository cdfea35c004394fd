import { beforeAll, describe, expect, it } from 'vitest';
import { alertLevelOf } from '../../../app/alerts/evaluate.js';
import type { Alert } from '../../../app/alerts/alert.js';
import type { PoolCapacityUsage } from '../../../app/catalog/index.js';
import { connectionLevel, systemLevel } from '../../../app/health/connection.js';
import type { Level } from '../../../app/health/level.js';
import { driveLevel, pairLevel } from '../../../app/health/states.js';
import { checkLevel } from '../../../app/compliance/waivers.js';
import { summaryFromWire, type HealthSummaryWire } from '../../../app/health/system-summary.js';
import { CONTRACT, type Channel } from '../../../app/ipc/contract.js';
import type { ReportModel } from '../../../app/reports/model.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { answerJson } from '../../../main/ipc/raw-json.js';
import { csvFiles } from '../../../main/reports/csv.js';
import { renderHtml } from '../../../main/reports/html.js';
import { passwordAccount } from '../../../main/secrets/accounts.js';
import type { SecretStore } from '../../../main/secrets/secret-store.js';
import type { Runtime } from '../../../main/runtime.js';
import { SimClock } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';
import { runCliHere } from '../../support/run-cli-here.js';

/**
 * One level per object on every surface. A fleet in every state the simulator can produce — a failed,
 * a missing and a degrading (predictive) drive, drives whose status is OK while their SMART text
 * predicts failure, a full and a filling pool, replication behind, a node taken over, a site down, a
 * site paused, a site whose login no longer works — and each system's, drive's, pool's, pair's and
 * alert's level read from every surface: the data both shells serve (`health:briefs`,
 * `health:summaries`, `fleet:status`, `alerts:list`, through the IPC handlers and the contract), the
 * CLI in processes of its own (`fleetdeck refresh --json` of the down, paused, logged-out and
 * SMART sites, then `fleetdeck alerts --json`), the app started again after it, and the health,
 * SMART and configuration reports as JSON, CSV and HTML. The tree, the overview and the system page
 * compute a system's level from that data with `systemLevel`, as this test does.
 */

const PASSWORD = 'one-level-pw-1';
const GIB = 1024 ** 3;

// Real time: replication stays behind for a minute after a reconnect, and the forecast counts from now.
const world = useSimulatedFleet({ simulator: { sites: 5, systems: 2, password: PASSWORD, clock: new SimClock(), seed: 'one-level' }, prefix: 'fleetdeck-one-level-' });

let rt: Runtime;

async function ipc<C extends Channel>(channel: C, request: unknown): Promise<unknown> {
  const envelope = JSON.parse(answerJson(await dispatch(rt.handlers, channel, request as never))) as { ok: boolean; value: unknown; error?: unknown };
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return (CONTRACT[channel].response as { parse(v: unknown): unknown }).parse(envelope.value);
}

/** A CLI process on the app's data directory, seeing the keychain the app used (as processes share the OS keychain). */
const cli = (args: string[], keychain: SecretStore) => runCliHere([...args, '--data-dir', world.dir], { env: {}, keychain });

/** Allocates `bytes` of `pool` on a system through the interface, as an admin provisions. */
async function allocate(siteId: string, system: string, pool: string, bytes: number, name: string): Promise<void> {
  const size = Math.floor(bytes / GIB) * GIB;
  await rt.fleet.call(siteId, system, 'POST /templates/create', { body: { Application: `${name}-tpl` } });
  await rt.fleet.call(siteId, system, 'POST /templates/volumes/create', { body: { Application: `${name}-tpl`, Volume: 'v', CapacityInBytes: size, Pool: pool } });
  await rt.fleet.call(siteId, system, 'POST /applications/create', { body: { Application: name, Template: `${name}-tpl` } });
}

/** What every surface is compared against: the levels read from the IPC data. */
interface Truth {
  systems: Map<string, Level>;
  drives: Map<string, Level>;
  pools: Map<string, Level>;
  pairs: Map<string, Level>;
  states: Map<string, string>;
  ha: Map<string, Level>;
  /** Each system's compliance checks, by check id, at the level their alert takes. */
  checks: Map<string, Level>;
}

const key = (...parts: string[]): string => parts.join('/');
let truth: Truth;
let alerts: Alert[];
let sites: Map<string, string>;
/** The drives whose status stays OK while their SMART text predicts failure, with the risk it shows. */
let worn: Array<{ key: string; system: string; risk: 'warning' | 'critical' }>;

beforeAll(async () => {
  rt = world.rt;
  const [s0, , s2, s3, s4] = world.siteIds as [string, string, string, string, string];
  await rt.fleet.refresh({ force: true });
  const [a, b] = rt.fleet.status(s0).map((s) => s.system) as [string, string];

  // Drives: a failed one on a, a pulled one on b; the simulator's degrading drive is on a already.
  world.sim.control.failDrive({ site: 0, system: a });
  world.sim.control.failDrive({ site: 0, system: b, missing: true });
  // Pools: one of b filled until the system calls it Full, one of a until it warns;
  // not the HDD pools, whose failed drives make the system call them Degraded.
  const poolsOf = (system: string) => (rt.fleet.cached(s0, system, 'GET /monitoring/capacity/pools/current', { total: true, details: true })?.value as PoolCapacityUsage).CapacityUsage ?? [];
  const roomy = (system: string) => poolsOf(system).filter((p) => p.Name && p.Name !== 'Total' && p.Name !== 'hdd-pool' && (p.FreeCapacityInBytes ?? 0) > 100 * GIB);
  const full = roomy(b)[0]!;
  // A volume's footprint adds its snapshot space (a few per cent): 97 % of the free space leaves under 5 %.
  await allocate(s0, b, full.Name!, (full.FreeCapacityInBytes ?? 0) * 0.97, 'fill');
  const filling = roomy(a)[0]!;
  await allocate(s0, a, filling.Name!, (filling.FreeCapacityInBytes ?? 0) * 0.9, 'grow');
  // Replication behind: the site's pair reconnects and syncs again.
  await rt.fleet.call(s0, a, 'GET /replication/refresh', { query: { reconnect: true } });
  // HA: b's first node taken over by its partner.
  const nodes = (rt.fleet.cached(s0, b, 'GET /nodes/list', { sensors: true, gateway: true, vols: true, ip: true, sed: true })?.value as { Data: Array<{ Name: string }> }).Data;
  await rt.fleet.call(s0, b, 'PUT /nodes/takeover', { body: { Node: nodes[0]!.Name } });
  // Site 4: a drive of each system OK by its status, its SMART past the critical limits on one, worn on the other.
  const [c, d] = rt.fleet.status(s4).map((x) => x.system) as [string, string];
  worn = [];
  for (const [system, risk] of [[c, 'critical'], [d, 'warning']] as const) {
    const drive = world.sim.control.wearDrive({ site: 4, system, risk });
    worn.push({ key: key(s4, system, drive.node, drive.name), system: key(s4, system), risk });
  }
  // Site 1 down, site 2 paused, site 3's password no longer works.
  await world.sim.control.siteDown(1);
  await rt.fleet.setPaused(s2, true);
  await rt.secrets.set(passwordAccount(s3), 'not-the-password');
  world.sim.control.expireTokens(3);
  await rt.fleet.refresh({ force: true });

  sites = new Map(world.siteIds.map((id, i) => [id, world.site(i).name]));
  const states = (await ipc('fleet:status', {})) as Array<{ siteId: string; systems: Array<{ siteId: string; system: string; state: string }> }>;
  const summaries = (await ipc('health:summaries', {})) as { systems: HealthSummaryWire[] };
  const briefs = (await ipc('health:briefs', {})) as { systems: Array<{ siteId: string; system: string; rollup: { level: Level } }> };
  truth = { systems: new Map(), drives: new Map(), pools: new Map(), pairs: new Map(), states: new Map(), ha: new Map(), checks: new Map() };
  for (const s of states.flatMap((x) => x.systems)) truth.states.set(key(s.siteId, s.system), s.state);
  for (const w of summaries.systems) {
    const facts = summaryFromWire(w);
    const k = key(w.siteId, w.system);
    const state = truth.states.get(k);
    const level = systemLevel(facts.rollup, state);
    truth.systems.set(k, level);
    // The health brief the tree and the overview's first frame read says the same.
    expect(systemLevel(briefs.systems.find((r) => r.siteId === w.siteId && r.system === w.system)!.rollup, state), k).toBe(level);
    for (const d of facts.drives) truth.drives.set(key(k, d.node, String(d.drive.Name)), driveLevel(d.drive, d.smart));
    for (const p of facts.rollup.capacity.pools) truth.pools.set(key(k, p.name), p.level);
    for (const p of facts.lagging) truth.pairs.set(key(k, p.application, p.volume, String(p.pair.RemoteSystemName)), pairLevel(p.pair));
    if (facts.rollup.ha) truth.ha.set(k, facts.rollup.ha.level);
  }
  // The compliance view's outcome of each check, as the Compliance view shows it.
  const compliance = (await ipc('compliance:evaluate', {})) as { systems: Array<{ siteId: string; system: string; checks: Array<Parameters<typeof checkLevel>[0] & { id: string }> }> };
  for (const s of compliance.systems) for (const c of s.checks) truth.checks.set(key(s.siteId, s.system, c.id), checkLevel(c));
  alerts = ((await ipc('alerts:list', { state: 'active' })) as { alerts: Alert[] }).alerts;
}, 300_000);

describe('one level per object on every surface', { timeout: 300_000 }, () => {
  it('has the fleet in every state the simulator can produce', () => {
    const states = [...truth.states.values()];
    for (const s of ['ok', 'unreachable', 'paused', 'login-required']) expect(states, s).toContain(s);
    const drives = [...truth.drives.values()];
    expect(drives).toContain('critical');
    expect(drives).toContain('warning');
    const pools = [...truth.pools.values()];
    expect(pools).toContain('critical');
    expect(pools.filter((l) => l === 'warning' || l === 'critical').length).toBeGreaterThanOrEqual(2);
    expect([...truth.pairs.values()].length).toBeGreaterThan(0);
    expect([...truth.ha.values()]).toContain('critical');
  });

  it('rates a system with a missing or failed drive critical, and a system that does not answer as its alert does', () => {
    for (const [k] of truth.drives) {
      const system = k.split('/').slice(0, 2).join('/');
      if (truth.drives.get(k) === 'critical') expect(truth.systems.get(system), k).toBe('critical');
    }
    for (const [k, state] of truth.states) {
      expect(levelRankOf(truth.systems.get(k)!), k).toBeLessThanOrEqual(levelRankOf(connectionLevel(state)));
    }
  });

  it('rates a drive OK by its status and failing by its SMART as its SMART says, and its system with it', () => {
    for (const w of worn) {
      expect(truth.drives.get(w.key), w.key).toBe(w.risk);
      expect(levelRankOf(truth.systems.get(w.system)!), w.system).toBeLessThanOrEqual(levelRankOf(w.risk));
      const a = alerts.find((x) => x.rule === 'drive' && key(x.siteId, x.system, x.subject) === w.key);
      expect(a?.level, w.key).toBe(w.risk);
      expect(a?.message, w.key).toMatch(/^SMART risk /);
    }
    expect(truth.systems.get(worn[0]!.system)).toBe('critical');
  });

  it('gives every alert the level of what it is about, and lists them worst first', () => {
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts) {
      const k = key(a.siteId, a.system);
      const expected: Level | undefined =
        a.rule === 'drive' ? truth.drives.get(key(k, a.subject)) :
        a.rule === 'replication' ? truth.pairs.get(key(k, a.subject)) :
        a.rule === 'pool-used' || a.rule === 'pool-full-days' ? truth.pools.get(key(k, a.subject)) :
        a.rule === 'ha' ? truth.ha.get(k) :
        a.rule === 'compliance' ? truth.checks.get(key(k, a.subject)) :
        a.rule === 'unreachable' || a.rule === 'login-required' || a.rule === 'certificate-changed' ? connectionLevel(a.rule) :
        undefined;
      if (a.rule === 'notification') continue;
      expect(expected, `${a.rule} ${k} ${a.subject}`).toBeDefined();
      expect(a.level, `${a.rule} ${k} ${a.subject}`).toBe(alertLevelOf(expected!));
    }
    // Every drive, pool and pair not ok has its alert.
    for (const [k, level] of truth.drives) if (level !== 'ok') expect(alerts.some((a) => a.rule === 'drive' && key(a.siteId, a.system, a.subject) === k), k).toBe(true);
    const ranks = alerts.map((a) => levelRankOf(a.level));
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
  });

  it('reports every level as the views show it, in JSON, CSV and HTML', async () => {
    const models: ReportModel[] = [];
    for (const kind of ['health', 'smart', 'config'] as const) models.push((await rt.reports.generate({ kind, offline: true })).model as ReportModel);
    const [health, smart, config] = models as [ReportModel, ReportModel, ReportModel];
    const rows = (m: ReportModel, id: string) => {
      const t = m.sections.flatMap((s) => s.tables).find((x) => x.id === id)!;
      return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.id, r[i]])) as Record<string, unknown>);
    };
    const siteId = (name: unknown): string => [...sites].find(([, n]) => n === name)![0];
    // JSON: the model as written.
    const json = JSON.parse(JSON.stringify(health)) as ReportModel;
    const systems = rows(json, 'health.systems');
    expect(systems).toHaveLength(truth.systems.size);
    for (const r of systems) expect(r.level, `${String(r.site)}/${String(r.system)}`).toBe(truth.systems.get(key(siteId(r.site), String(r.system))));
    for (const r of rows(json, 'health.pools')) {
      if (r.pool === 'All pools') continue;
      expect(String(r.outlook).split(':')[0], `${String(r.system)}/${String(r.pool)}`).toBe(truth.pools.get(key(siteId(r.site), String(r.system), String(r.pool))));
    }
    for (const r of rows(json, 'health.hardwareProblems')) {
      if (r.component !== 'Drive') continue;
      expect(r.level, String(r.name)).toBe(truth.drives.get(key(siteId(r.site), String(r.system), String(r.node), String(r.name))));
    }
    const problems = new Set<string>();
    for (const r of rows(json, 'health.hardwareProblems')) if (r.component === 'Drive') problems.add(key(siteId(r.site), String(r.system), String(r.node), String(r.name)));
    // Every drive not ok is an open hardware problem, SMART-only ones too.
    expect([...problems].sort()).toEqual([...truth.drives.keys()].sort());
    for (const r of rows(smart, 'smart.drives')) {
      const level = truth.drives.get(key(siteId(r.site), String(r.system), String(r.node), String(r.drive))) ?? 'ok';
      // The drive's level, or for a drive ok everywhere: SMART text not understood, or none cached.
      if (level === 'ok') expect(['ok', 'unknown', 'no SMART data'], String(r.drive)).toContain(r.risk);
      else expect(r.risk, `${String(r.system)} ${String(r.drive)}`).toBe(level);
    }
    for (const r of rows(config, 'config.replication')) {
      const level = truth.pairs.get(key(siteId(r.site), String(r.system), String(r.application), String(r.volume), String(r.remoteSystem)));
      expect(r.level, `${String(r.system)} ${String(r.volume)}`).toBe(level ?? 'ok');
    }
    // CSV: the health report's system table, column by column.
    const csv = csvFiles(health as never).find((f) => f.path === 'csv/health.systems.csv')!;
    const [head, ...lines] = csv.content.trim().split(/\r?\n/).map((l) => l.split(','));
    const at = (name: string): number => head!.findIndex((h) => h.replace(/"/g, '') === name);
    for (const l of lines) {
      const k = key(siteId(l[at('Site')]!.replace(/"/g, '')), l[at('System')]!.replace(/"/g, ''));
      expect(l[at('Health (roll-up)')]!.replace(/"/g, ''), k).toBe(truth.systems.get(k));
    }
    // HTML: each system's row of the health table carries its level.
    const html = renderHtml(health as never);
    for (const r of systems) expect(html, String(r.system)).toContain(`<td>${String(r.site)} / ${String(r.system)}</td><td>${String(r.state)}</td><td>${String(r.level)}</td>`);
  });

  it('says the same in CLI processes (`fleetdeck refresh --json` of a down, a paused, a logged-out site; `fleetdeck alerts --json`) and in the app started again', async () => {
    const keychain = rt.secrets;
    await world.closeRuntime();
    // A cron job's refresh: it finds each site as the shells did, and rates each system as they do.
    for (const i of [1, 2, 3, 4]) {
      const name = world.site(i).name;
      const run = await cli(['refresh', '--json', '--site', name], keychain);
      const rows = JSON.parse(run.stdout) as Array<{ system: string; state: string; health: Level }>;
      expect(rows.map((r) => r.system).sort(), `${name}: ${run.stderr}`).toEqual([...truth.states.keys()].filter((k) => k.startsWith(`${world.siteIds[i]!}/`)).map((k) => k.slice(world.siteIds[i]!.length + 1)).sort());
      for (const r of rows) {
        const k = key(world.siteIds[i]!, r.system);
        expect(r.state, k).toBe(truth.states.get(k));
        expect(r.health, k).toBe(truth.systems.get(k));
      }
    }
    // Its alerts are the shells' alerts, at the same levels, worst first, and no others on those sites.
    const listed = JSON.parse((await cli(['alerts', '--json'], keychain)).stdout) as Alert[];
    const byId = new Map(alerts.map((a) => [a.id, a.level]));
    expect(listed.filter((a) => byId.has(a.id)).map((a) => [a.id, a.level])).toEqual(alerts.map((a) => [a.id, a.level]));
    const cliSites = new Set([1, 2, 3, 4].map((i) => world.siteIds[i]!));
    expect(listed.filter((a) => cliSites.has(a.siteId) && !byId.has(a.id)).map((a) => `${a.rule} ${a.system} ${a.subject}`)).toEqual([]);
    for (const a of listed.filter((x) => x.rule === 'unreachable' || x.rule === 'login-required')) expect(truth.states.get(key(a.siteId, a.system)), a.system).toBe(a.rule);
    // The app started after the CLI: the tree's states and the overview's levels are what the CLI said.
    rt = await world.reopen({ keychain });
    const states = (await ipc('fleet:status', {})) as Array<{ systems: Array<{ siteId: string; system: string; state: string }> }>;
    const briefs = (await ipc('health:briefs', {})) as { systems: Array<{ siteId: string; system: string; rollup: { level: Level } }> };
    for (const s of states.flatMap((x) => x.systems).filter((x) => cliSites.has(x.siteId))) {
      const k = key(s.siteId, s.system);
      expect(s.state, k).toBe(truth.states.get(k));
      expect(systemLevel(briefs.systems.find((r) => r.siteId === s.siteId && r.system === s.system)!.rollup, s.state), k).toBe(truth.systems.get(k));
    }
  });
});

function levelRankOf(level: Level): number {
  return ['critical', 'unknown', 'warning', 'ok'].indexOf(level);
}
