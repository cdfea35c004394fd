import { SvelteMap } from 'svelte/reactivity';
import { managedPolicy } from './policy.svelte.js';
import type { Response, SiteView, SystemStatusView } from '../../app/ipc/contract.js';
import { refreshEnded, supersedes } from '../../app/domain/site-rules.js';
import { api, firstRead } from './api.js';
import { compareText, errorText } from './format.js';
import { changedMap, emptyMap } from './published-map.js';

export type AppInfo = Response<'app:info'>;

/** One system of the fleet as every view sees it. */
export interface FleetSystem {
  /**
   * The system's key in the fleet's maps (`siteId`, U+0000, `system`), the one the health's maps use
   * too: the string the status map holds, so a lookup with it neither builds nor hashes a new one.
   */
  key: string;
  siteId: string;
  site: SiteView | undefined;
  system: string;
  status: SystemStatusView;
}

const key = (siteId: string, system: string): string => `${siteId}\u0000${system}`;

const bySystem = (a: FleetSystem, b: FleetSystem): number => compareText(a.system, b.system);

/**
 * Statuses with their sites, sorted by site name then system name (a stable sort: systems equal in
 * both keep the order of `statuses`). Grouped by site name first, so the collator orders 100 site
 * names and then each site's few systems: about 1,500 comparisons at 1,000 systems in 100 sites,
 * where one sort of the whole list by both keys made about 8,000.
 */
function joinSystems(sites: readonly SiteView[], statuses: ReadonlyMap<string, SystemStatusView>): FleetSystem[] {
  // By id, not a search of the list per system (1,000 systems × 100 sites at the first frame).
  const byId = new Map(sites.map((s) => [s.id, s]));
  // A dictionary without a prototype: a site may be named "__proto__".
  const groups: Record<string, FleetSystem[]> = Object.create(null) as Record<string, FleetSystem[]>;
  for (const [key, status] of statuses) {
    const site = byId.get(status.siteId);
    (groups[site?.name ?? status.siteId] ??= []).push({ key, siteId: status.siteId, site, system: status.system, status });
  }
  const names = Object.keys(groups).sort(compareText);
  const out: FleetSystem[] = [];
  for (let i = 0; i < names.length; ) {
    let j = i + 1;
    while (j < names.length && compareText(names[i]!, names[j]!) === 0) j++;
    if (j === i + 1) {
      out.push(...groups[names[i]!]!.sort(bySystem));
    } else {
      // Different texts the collator holds equal (canonically equivalent) are one name: their
      // systems sorted together, ties in the order of `statuses`.
      const members = names.slice(i, j).flatMap((n) => groups[n]!);
      const at = new Map([...statuses.keys()].map((k, n) => [k, n]));
      out.push(...members.sort((a, b) => bySystem(a, b) || at.get(a.key)! - at.get(b.key)!));
    }
    i = j;
  }
  return out;
}

/**
 * The fleet as the renderer knows it: app info, sites, every system's status (kept current by
 * `fleet:status` events) and a per-system data version that moves when a refresh has written new
 * cached reads, so views reload exactly then.
 */
export class FleetStore {
  info = $state.raw<AppInfo | undefined>(undefined);
  sites = $state.raw<readonly SiteView[]>([]);
  /** Site-level problems from `fleet:status` (for example a site whose system list failed). */
  readonly siteErrors = new SvelteMap<string, string>();
  /** Notifications announced by main since the app opened, per system. */
  readonly newNotifications = new SvelteMap<string, number>();
  loaded = $state(false);
  error = $state<string | undefined>(undefined);
  /** True while a refresh this window started is running. */
  refreshing = $state(false);

  /**
   * Every system's status: a plain map replaced whole at each publication (a load, a batch of
   * events), so the first read of 1,000 systems is one change the views see, not 1,000.
   */
  #statuses = $state.raw(emptyMap<string, SystemStatusView>());
  readonly #versions = new SvelteMap<string, number>();
  /** Publications in which some system's data version moved (see {@link versionsMoved}). */
  #movedCount = 0;
  #moved = $state(0);
  readonly #batchMs: number;
  #pending: SystemStatusView[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param options.eventBatchMs status events are applied together at most this often (ms). A
   *   refresh sends one per read per system; applying each alone would rebuild the tree and the
   *   overview thousands of times. 0 applies each at once.
   */
  constructor(options: { eventBatchMs?: number } = {}) {
    this.#batchMs = options.eventBatchMs ?? 100;
  }

  /** Every known system, sorted by site name then system name. */
  readonly systems: readonly FleetSystem[] = $derived(joinSystems(this.sites, this.#statuses));

  /** Reads done / planned over every system refreshing now; undefined when none is. */
  readonly progress: { done: number; total: number; systems: number } | undefined = $derived.by(() => {
    let done = 0;
    let total = 0;
    let systems = 0;
    for (const s of this.#statuses.values()) {
      if (s.state !== 'refreshing') continue;
      systems++;
      done += s.progress?.done ?? 0;
      total += s.progress?.total ?? 0;
    }
    return systems > 0 ? { done, total, systems } : undefined;
  });

  /**
   * Loads app info, sites and statuses. Failures land in `error`; the app still renders.
   * @param options.with another first read (every system's health) whose answer is shown with these:
   *   they are published once it has settled, so the views are built once with both, not twice.
   */
  async load(options: { with?: Promise<unknown> } = {}): Promise<void> {
    try {
      // The reads the first script sent (renderer/main.ts) when this is the window's first load.
      const [info, sites, status] = await Promise.all([firstRead('app:info'), firstRead('sites:list'), firstRead('fleet:status')]);
      await options.with?.catch(() => undefined);
      this.info = info;
      managedPolicy.view = info.policy;
      this.sites = sites;
      for (const site of status) {
        if (site.error) this.siteErrors.set(site.siteId, site.error);
        else this.siteErrors.delete(site.siteId);
      }
      this.applyAll(status.flatMap((site) => site.systems));
      this.error = undefined;
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.loaded = true;
    }
  }

  /** Subscribes to main's events; returns the unsubscribe function. */
  listen(): () => void {
    const offStatus = api().on('fleet:status', (s) => this.#queue(s));
    const offNotes = api().on('fleet:notifications', (n) => {
      const k = key(n.siteId, n.system);
      this.newNotifications.set(k, (this.newNotifications.get(k) ?? 0) + n.count);
    });
    return () => {
      offStatus();
      offNotes();
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
    };
  }

  #queue(s: SystemStatusView): void {
    if (this.#batchMs <= 0) {
      this.apply(s);
      return;
    }
    this.#pending.push(s);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      const batch = this.#pending;
      this.#pending = [];
      this.applyAll(batch);
    }, this.#batchMs);
  }

  /** Takes a status in; bumps the data version when a refresh or a background poll has finished (new data may be cached). */
  apply(s: SystemStatusView): void {
    this.applyAll([s]);
  }

  /**
   * Takes statuses in, published together (one new map); bumps the data version of each system whose
   * refresh or poll has finished. A status older than the one the store has of its system (by main's
   * `seq`: an answer read before an event that came first, an event replayed) is left out, so
   * whatever the order of arrival the store shows each system's newest status.
   */
  applyAll(list: readonly SystemStatusView[]): void {
    if (list.length === 0) return;
    let moved = false;
    let taken = false;
    const statuses = changedMap(this.#statuses, (next) => {
      for (const s of list) {
        const k = key(s.siteId, s.system);
        // The status this one follows: an earlier one of the same list, else the one published.
        const prev = next.get(k);
        if (!supersedes(s, prev)) continue;
        next.set(k, s);
        taken = true;
        if (refreshEnded(prev, s)) {
          this.#versions.set(k, (this.#versions.get(k) ?? 0) + 1);
          moved = true;
        }
      }
    });
    // Nothing newer (a batch of replays): no publication, so no view is rebuilt for nothing.
    if (taken) this.#statuses = statuses;
    if (moved) this.#moved = ++this.#movedCount;
  }

  status(siteId: string, system: string): SystemStatusView | undefined {
    return this.#statuses.get(key(siteId, system));
  }

  site(siteId: string): SiteView | undefined {
    return this.sites.find((s) => s.id === siteId);
  }

  /**
   * Moves whenever some system's data version moves (once per publication that moved any): what a
   * view that reloads the whole fleet's summaries watches, instead of walking every system's version
   * after every status batch (App.svelte).
   */
  get versionsMoved(): number {
    return this.#moved;
  }

  /** Moves whenever new cached data of the system may exist. */
  version(siteId: string, system: string): number {
    return this.#versions.get(key(siteId, system)) ?? 0;
  }

  newNotificationCount(siteId: string, system: string): number {
    return this.newNotifications.get(key(siteId, system)) ?? 0;
  }

  clearNewNotifications(siteId: string, system: string): void {
    this.newNotifications.delete(key(siteId, system));
  }

  /**
   * Drops a removed site and everything known about its systems, so no view keeps showing systems
   * main has already forgotten (main sends no event for a removal).
   */
  forgetSite(siteId: string): void {
    this.sites = this.sites.filter((s) => s.id !== siteId);
    this.siteErrors.delete(siteId);
    const prefix = key(siteId, '');
    this.#statuses = changedMap(this.#statuses, (next) => {
      for (const k of [...next.keys()]) if (k.startsWith(prefix)) next.delete(k);
    });
    for (const map of [this.#versions, this.newNotifications]) {
      for (const k of [...map.keys()]) if (k.startsWith(prefix)) map.delete(k);
    }
  }

  /** Refreshes the whole fleet, or one system. Statuses arrive as events and with the answer. */
  async refresh(target?: { siteId: string; system: string }): Promise<void> {
    this.refreshing = true;
    try {
      // The admin asked: try now, even a site that is backing off after failures.
      const statuses = await api().invoke('fleet:refresh', target ? { sites: [target.siteId], systems: [target.system], force: true } : { force: true });
      this.applyAll(statuses);
      this.sites = await api().invoke('sites:list', {});
      this.error = undefined;
    } catch (err) {
      this.error = `refresh failed: ${errorText(err)}`;
    } finally {
      this.refreshing = false;
    }
  }
}
