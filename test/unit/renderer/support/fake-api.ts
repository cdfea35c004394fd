import type { Channel, EventName, EventPayload, FleetdeckApi, Request, Response, SiteView, SystemStatusView } from '../../../../app/ipc/contract.js';
import { flushSync } from 'svelte';
import { entriesOf, foldEntry, matchEntries, type SearchAnswer } from '../../../../app/search/entries.js';
import { READS } from '../../../../renderer/lib/reads.js';
import { partsLoaded } from '../../../../renderer/lib/lazy.js';
import { briefOf, summaryFromWire, healthSummaryOf, type HealthBriefWire, type HealthSummaryWire } from '../../../../app/health/system-summary.js';

/** A cached answer as `cache:read` returns it. */
export interface CachedAnswer {
  value: unknown;
  at: string;
  stale?: boolean;
}

export interface FakeFleet {
  sites?: SiteView[];
  statuses?: SystemStatusView[];
  simulated?: boolean;
  /** `cacheKey(site, system, op, query)` → answer. */
  cache?: Map<string, CachedAnswer>;
  /** Answers `op:call`; throw to fail the call. */
  call?: (req: Request<'op:call'>) => unknown;
  /** Answers `search:query`; by default main's matching over the fake cache, every system read. */
  search?: (req: Request<'search:query'>) => SearchAnswer | Promise<SearchAnswer>;
}

/** The key the fake cache is indexed by: like main's, the operation plus its query with sorted names. */
export function cacheKey(site: string, system: string, op: string, query: Record<string, unknown> = {}): string {
  const sorted = Object.keys(query)
    .sort()
    .map((k) => [k, query[k]]);
  return `${site}|${system}|${op}|${JSON.stringify(sorted)}`;
}

export function site(id: string, name: string, extra: Partial<SiteView> = {}): SiteView {
  return {
    id,
    name,
    baseUrl: `https://${id}.example:8443`,
    username: 'admin',
    tags: [],
    tls: { hasCaBundle: false },
    allowHttp: false,
    polling: { intervalSeconds: 60, paused: false, maxInFlight: 4 },
    simulated: true,
    ...extra,
  };
}

export function status(siteId: string, system: string, state: SystemStatusView['state'], extra: Partial<SystemStatusView> = {}): SystemStatusView {
  return { siteId, system, state, ...extra };
}

/**
 * A FleetdeckApi over in-memory data that records every invocation; `emit` pushes an event as
 * main would.
 */
export function fakeApi(fleet: FakeFleet) {
  const invocations: Array<{ channel: Channel; request: unknown }> = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const cache = fleet.cache ?? new Map<string, CachedAnswer>();
  const statuses = fleet.statuses ?? [];
  /** Systems told of by `fleet:status` events, beside the initial statuses. */
  const announced = new Map<string, { siteId: string; system: string }>();
  /** Each system's summary as last computed, main's way: a new seq only when it changed. */
  const summaries = new Map<string, { seq: number; json: string }>();
  let summarySeq = 0;
  const summarise = (): HealthSummaryWire[] => {
    const systems = new Map([...statuses.map((s) => [`${s.siteId}|${s.system}`, s] as const), ...announced]);
    const out: HealthSummaryWire[] = [];
    for (const [k, s] of systems) {
      const facts = healthSummaryOf((r) => cache.get(cacheKey(s.siteId, s.system, r.op, r.query)), Date.now());
      const json = JSON.stringify({ siteId: s.siteId, system: s.system, ...facts });
      const prev = summaries.get(k);
      const kept = prev?.json === json ? prev : { seq: ++summarySeq, json };
      summaries.set(k, kept);
      out.push({ ...(JSON.parse(json) as Omit<HealthSummaryWire, 'seq'>), seq: kept.seq });
    }
    return out;
  };

  const handlers: { [C in Channel]?: (req: Request<C>) => Response<C> | Promise<Response<C>> } = {
    'app:info': () => ({ version: '0.0.0-test', simulated: fleet.simulated ?? false, keychain: 'memory' }),
    'sites:list': () => fleet.sites ?? [],
    'fleet:status': () => (fleet.sites ?? []).map((s) => ({ siteId: s.id, systems: statuses.filter((x) => x.siteId === s.id) })),
    'fleet:refresh': () => statuses,
    'cache:read': (req) => {
      const hit = cache.get(cacheKey(req.site, req.system, req.operation, req.query ?? {}));
      return hit ? { value: hit.value, at: hit.at, stale: hit.stale ?? false } : null;
    },
    'op:call': async (req) => ({ result: await fleet.call?.(req) }),
    'search:query': (req) => (fleet.search ? fleet.search(req) : searchCache(req)),
    'health:briefs': (req) => {
      const all = summarise();
      // Main's health brief of the same facts, as JSON carries it.
      const briefs = all.filter((x) => x.seq > (req.since ?? -1)).map((x) => JSON.parse(JSON.stringify({ siteId: x.siteId, system: x.system, seq: x.seq, ...briefOf(summaryFromWire(x)) })) as HealthBriefWire);
      return { seq: summarySeq, systems: briefs };
    },
    'health:summaries': (req) => {
      const all = summarise();
      return { seq: summarySeq, systems: all.filter((x) => x.seq > (req.since ?? -1)) };
    },
  };

  /** What main's index answers on the fake cache: every system, in the fleet's order, read. */
  function searchCache(req: Request<'search:query'>): SearchAnswer {
    const siteOf = (id: string): SiteView | undefined => fleet.sites?.find((s) => s.id === id);
    const data = (siteId: string, system: string, r: { op: string; query: Record<string, unknown> }): never[] | undefined => {
      const d = (cache.get(cacheKey(siteId, system, r.op, r.query))?.value as { Data?: unknown } | undefined)?.Data;
      return Array.isArray(d) ? (d as never[]) : undefined;
    };
    const systems = [...statuses].sort((a, b) => (siteOf(a.siteId)?.name ?? a.siteId).localeCompare(siteOf(b.siteId)?.name ?? b.siteId) || a.system.localeCompare(b.system));
    const entries = systems.flatMap((st) =>
      entriesOf({
        siteId: st.siteId,
        siteName: siteOf(st.siteId)?.name ?? st.siteId,
        siteHost: siteOf(st.siteId) ? new URL(siteOf(st.siteId)?.baseUrl ?? '').host : '',
        system: st.system,
        hosts: data(st.siteId, st.system, READS.hosts),
        applications: data(st.siteId, st.system, READS.applications),
        resources: data(st.siteId, st.system, READS.resources),
        nodes: data(st.siteId, st.system, READS.nodes),
      }),
    );
    return { ...matchEntries([entries.map(foldEntry)], req.query, req.limit ?? 200), systems: systems.length, pending: 0 };
  }

  const api: FleetdeckApi = {
    async invoke<C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> {
      invocations.push({ channel, request });
      const handler = handlers[channel] as ((r: Request<C>) => Response<C> | Promise<Response<C>>) | undefined;
      if (!handler) throw Object.assign(new Error(`fake: ${channel} not implemented`), { code: 'unsupported' });
      return handler(request);
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (p: unknown) => void);
    },
  };

  return {
    api,
    invocations,
    cache,
    /** `op:call` invocations only. */
    calls: () => invocations.filter((i) => i.channel === 'op:call').map((i) => i.request as Request<'op:call'>),
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      if (event === 'fleet:status') {
        const st = payload as EventPayload<'fleet:status'>;
        announced.set(`${st.siteId}|${st.system}`, { siteId: st.siteId, system: st.system });
      }
      for (const l of listeners.get(event) ?? []) l(payload);
      flushSync();
    },
  };
}

/** Lets pending IPC promises settle and Svelte flush, a few rounds deep. */
export async function settle(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise((r) => setTimeout(r, 0));
    // A view or area shown for the first time loads its script chunk (renderer/lib/lazy.ts): wait for it, not for time.
    await partsLoaded();
    flushSync();
  }
}

export function key(el: Element, k: string, init: KeyboardEventInit = {}): void {
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  flushSync();
}
