import type { Channel, EventName, EventPayload, FleetdeckApi, Request, Response, SiteView, SystemStatusView } from '../../../../app/ipc/contract.js';
import { flushSync } from 'svelte';
import { healthFacts, type SystemSummaryWire } from '../../../../app/health/system-summary.js';

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
  const summarise = (): SystemSummaryWire[] => {
    const systems = new Map([...statuses.map((s) => [`${s.siteId}|${s.system}`, s] as const), ...announced]);
    const out: SystemSummaryWire[] = [];
    for (const [k, s] of systems) {
      const facts = healthFacts((r) => cache.get(cacheKey(s.siteId, s.system, r.op, r.query)), Date.now());
      const json = JSON.stringify({ siteId: s.siteId, system: s.system, ...facts });
      const prev = summaries.get(k);
      const kept = prev?.json === json ? prev : { seq: ++summarySeq, json };
      summaries.set(k, kept);
      out.push({ ...(JSON.parse(json) as Omit<SystemSummaryWire, 'seq'>), seq: kept.seq });
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
    'health:summaries': (req) => {
      const all = summarise();
      return { seq: summarySeq, systems: all.filter((x) => x.seq > (req.since ?? -1)) };
    },
  };

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
    flushSync();
  }
}

export function key(el: Element, k: string, init: KeyboardEventInit = {}): void {
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  flushSync();
}
