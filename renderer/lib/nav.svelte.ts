/**
 * Where the user is. Routes are data, so the tree, the palette and the views agree on what is
 * selected; details name a drill-down inside an area. Add a detail kind here when an area needs one.
 */
export type AreaDetail =
  | { kind: 'node'; node: string }
  | { kind: 'drive'; node: string; driveId: number }
  | { kind: 'nic'; node: string; nic: string }
  | { kind: 'operation'; op: string }
  | { kind: 'volume'; application: string; volume: string }
  | { kind: 'host'; host: string };

export type Route =
  | { view: 'overview' }
  | { view: 'search'; query: string }
  /** Fleet-wide views that belong to no system. */
  | { view: 'reports' }
  | { view: 'actions' }
  | { view: 'sites' }
  /** Bulk changes, optionally opened on one write (`METHOD /path`). */
  | { view: 'bulk'; op?: string }
  | { view: 'alerts' }
  /** Every pool of every system, fullest first. */
  | { view: 'capacity' }
  /** Software versions and firmware across the fleet. */
  | { view: 'drift' }
  /** Configuration of chosen systems side by side. */
  | { view: 'compare' }
  /** Every system against the compliance baseline, optionally drilled into one system. */
  | { view: 'compliance'; siteId?: string; system?: string }
  | { view: 'system'; siteId: string; system: string; area: string; detail?: AreaDetail };

export type SystemRoute = Extract<Route, { view: 'system' }>;

const MAX_BACK = 50;

export class Nav {
  route = $state.raw<Route>({ view: 'overview' });
  #back: Route[] = [];
  canGoBack = $state(false);

  go(route: Route): void {
    this.#back.push(this.route);
    if (this.#back.length > MAX_BACK) this.#back.shift();
    this.canGoBack = true;
    this.route = route;
  }

  back(): void {
    const prev = this.#back.pop();
    this.canGoBack = this.#back.length > 0;
    if (prev) this.route = prev;
  }

  /** Opens a system at an area (its summary by default). */
  openSystem(siteId: string, system: string, area = 'summary', detail?: AreaDetail): void {
    this.go(detail ? { view: 'system', siteId, system, area, detail } : { view: 'system', siteId, system, area });
  }

  /** The system of the current route, if any. */
  get currentSystem(): { siteId: string; system: string } | undefined {
    const r = this.route;
    return r.view === 'system' ? { siteId: r.siteId, system: r.system } : undefined;
  }
}
