import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefOf, summaryFromWire, healthSummaryOf, SUMMARY_READS, type HealthSummary, type HealthSummaryWire } from '../../../app/health/system-summary.js';
import { CONTRACT } from '../../../app/ipc/contract.js';
import { createHandlers, dispatch, type Handlers } from '../../../main/ipc/handlers.js';
import { answerJson } from '../../../main/ipc/raw-json.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { SimClock, startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

/**
 * The overview, tree and header read every system's health in one `health:summaries`
 * call. Against the simulator: the answer is what the window computed from the cached answers
 * before, checked by the contract, limited to a scoped window's site, and kept across a restart.
 */

const PASSWORD = 'summaries-pw-1';
let sim: SimulatorHandle;
let dataDir: string;
let rt: Runtime | undefined;
const siteIds: string[] = [];

type Answer = { seq: number; systems: HealthSummaryWire[] };

/** Calls the channel as a shell does: dispatch, the envelope as JSON text, parsed as the window would, checked by the contract. */
async function call(handlers: Handlers, request: { since?: number }): Promise<Answer> {
  const envelope = JSON.parse(answerJson(await dispatch(handlers, 'health:summaries', request))) as { ok: boolean; value: unknown };
  expect(envelope.ok).toBe(true);
  return CONTRACT['health:summaries'].response.parse(envelope.value);
}

/** The forecast's figures count from "now", which differs by the milliseconds between two computations. */
function withoutForecastFigures(f: HealthSummary): unknown {
  return JSON.parse(JSON.stringify(f, (k, v: unknown) => (['days', 'fullAt', 'consumedNow', 'range'].includes(k) ? undefined : v)));
}

/** What the window computed before, from the system's cached answers read one by one. */
function fromCache(r: Runtime, siteId: string, system: string): HealthSummary {
  return healthSummaryOf((read) => r.fleet.cached(siteId, system, read.op, read.query), Date.now(), r.smart.lookup(siteId, system));
}

beforeAll(async () => {
  sim = await startSimulator({ sites: 2, systems: 2, password: PASSWORD, controlServer: false, clock: new SimClock(), seed: 'summaries' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-summaries-'));
  rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 10_000 });
  for (const s of sim.manifest.sites) siteIds.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: PASSWORD })).id);
  await rt.fleet.refresh({ force: true });
}, 120_000);

afterAll(async () => {
  await rt?.close();
  await sim?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('health:summaries against the simulator', { timeout: 120_000 }, () => {
  it("answers every system's facts in one call, as computed from its cached answers", async () => {
    const r = rt!;
    const answer = await call(r.handlers, {});
    const systems = r.fleet.status();
    expect(answer.systems.map((s) => `${s.siteId}/${s.system}`).sort()).toEqual(systems.map((s) => `${s.siteId}/${s.system}`).sort());
    for (const w of answer.systems) {
      const facts = summaryFromWire(w);
      expect(facts.at, w.system).toBe(r.fleet.cached(w.siteId, w.system, SUMMARY_READS.health.op, SUMMARY_READS.health.query)?.at);
      expect(facts.at, w.system).toBeDefined();
      expect(withoutForecastFigures(facts), w.system).toEqual(withoutForecastFigures(fromCache(r, w.siteId, w.system)));
    }
    expect(await call(r.handlers, { since: answer.seq })).toEqual({ seq: answer.seq, systems: [] });
  });

  it('answers only the system refreshed since, with what changed (a failed drive)', async () => {
    const r = rt!;
    const before = await call(r.handlers, {});
    const target = r.fleet.status(siteIds[0])[0]!;
    const failed = sim.control.failDrive({ site: 0, system: target.system });
    await r.fleet.refresh({ siteIds: [target.siteId], systems: [target.system], force: true });
    const after = await call(r.handlers, { since: before.seq });
    expect(after.systems.map((s) => s.system)).toEqual([target.system]);
    expect(summaryFromWire(after.systems[0]!).drives.map((d) => `${d.node}/${d.drive.Name}`)).toContain(`${failed.node}/${failed.name}`);
  });

  it("answers every system's health brief (health:briefs), that of its summary, with the same seq", async () => {
    const r = rt!;
    const whole = await call(r.handlers, {});
    const envelope = JSON.parse(answerJson(await dispatch(r.handlers, 'health:briefs', {}))) as { ok: boolean; value: unknown };
    expect(envelope.ok).toBe(true);
    const briefs = CONTRACT['health:briefs'].response.parse(envelope.value);
    expect(briefs.seq).toBe(whole.seq);
    expect(briefs.systems).toEqual(whole.systems.map((w) => JSON.parse(JSON.stringify({ siteId: w.siteId, system: w.system, seq: w.seq, ...briefOf(summaryFromWire(w)) })) as unknown));
    expect(JSON.parse(answerJson(await dispatch(r.handlers, 'health:briefs', { since: briefs.seq })))).toEqual({ ok: true, value: { seq: briefs.seq, systems: [] } });
  });

  it("limits a window scoped to one site to that site's systems", async () => {
    const r = rt!;
    const scoped = createHandlers({ fleet: r.fleet, sites: r.sites, actionLog: r.actionLog, version: 'test', keychain: 'memory', simulatedSiteIds: new Set(), scopedSite: siteIds[1], summaries: r.summaries });
    const answer = await call(scoped, {});
    expect(answer.systems.length).toBeGreaterThan(0);
    expect(new Set(answer.systems.map((s) => s.siteId))).toEqual(new Set([siteIds[1]]));
    const briefs = CONTRACT['health:briefs'].response.parse((JSON.parse(answerJson(await dispatch(scoped, 'health:briefs', {}))) as { value: unknown }).value);
    expect(briefs.systems.map((s) => s.system)).toEqual(answer.systems.map((s) => s.system));
  });

  it('serves the same summaries after a restart with the sites paused, before any refresh', async () => {
    const before = await call(rt!.handlers, {});
    for (const id of siteIds) await rt!.fleet.setPaused(id, true);
    await rt!.close();
    rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 10_000 });
    const after = await call(rt.handlers, {});
    const strip = (a: Answer) => a.systems.map(({ seq: _seq, ...s }) => s).sort((x, y) => `${x.siteId}/${x.system}`.localeCompare(`${y.siteId}/${y.system}`));
    expect(strip(after)).toEqual(strip(before));
  });
});
