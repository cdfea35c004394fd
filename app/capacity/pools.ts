import type { Health, PoolCapacityHistoryStatistic, PoolCapacityUsage, PoolProvisioning, VirtualRaidValue } from '../catalog/resources.js';
import { worse, worst, type Level } from '../health/level.js';
import { classifyState, type StateClass } from '../health/states.js';
import { forecastOf, historyFits, seriesFit, type Forecast, type SeriesFit } from './forecast.js';

/**
 * A pool's capacity as every view and report shows it, from what the system reports: the figures of
 * the pool capacity read, the system's own provisioning state (GET /monitoring/capacity/provisioning)
 * and the days-until-full forecast of the capacity history. The colour is the worse of the state and
 * the forecast, so a pool the system calls Full is never shown green because it grows slowly.
 */

export { CAPACITY_TERMS, type CapacityTerm } from './terms.js';

/** Fallback thresholds, used only when a system reports no provisioning state: allocated share of usable, %. */
export const ALLOCATED_WARNING = 80;
export const ALLOCATED_CRITICAL = 90;

export interface PoolCapacity {
  name: string;
  /** Bytes; undefined where the system reports nothing to derive it from. */
  usable: number | undefined;
  allocated: number | undefined;
  consumed: number | undefined;
  free: number | undefined;
  /** Free share of usable, %: the system's own figure where it reports one. */
  freePercent: number | undefined;
  /** Allocated share of usable, %. */
  allocatedPercent: number | undefined;
  /** The provisioning state and reason as the system reports them. */
  state: string | undefined;
  reason: string | undefined;
  /** N+K layouts the system offers for new volumes in this pool. */
  layouts: ReadonlyArray<{ n: number; k: number }>;
  /** Days until full ({@link forecastFull}, basis stated); a pool judged full now has status `full`, 0 days. */
  forecast: Forecast;
  /** "All pools" only: the pool whose forecast is the earliest, whose forecast the line shows. */
  fillsFirst?: string | undefined;
  /** The worse of the state and the forecast. */
  level: Level;
  /** A short phrase for a pill: `full`, `nearly full`, `degraded`, `full in 20 days`, `ok`. */
  verdict: string;
  /** Why the level is not ok, in words. */
  reasons: string[];
}

export interface SystemCapacity {
  /** Pools by name, worst first. */
  pools: PoolCapacity[];
  /** Every pool together ("All pools"); undefined with fewer than two pools. */
  total: PoolCapacity | undefined;
  level: Level;
  reasons: string[];
}

export interface CapacityInput {
  health?: Health | null | undefined;
  pools?: PoolCapacityUsage | null | undefined;
  provisioning?: readonly PoolProvisioning[] | null | undefined;
  history?: readonly PoolCapacityHistoryStatistic[] | null | undefined;
  /** Milliseconds since the epoch the forecast counts from (default: the newest sample). */
  now?: number | undefined;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const round2 = (v: number): number => Math.round(v * 100) / 100;

/**
 * The level of a provisioning state ({@link classifyState}). The interface shows only "Ok"; Warning,
 * Full and Degraded are what systems report. A state not understood is unknown and named, never ok.
 */
export function stateLevel(state: string | undefined): StateClass | undefined {
  return classifyState('pool', state);
}

function forecastLevel(f: Forecast): Level {
  if (f.status === 'full') return 'critical';
  if (f.status !== 'growing') return 'ok';
  if ((f.range?.low ?? Number.POSITIVE_INFINITY) < 30) return 'critical';
  return (f.days ?? Number.POSITIVE_INFINITY) < 90 ? 'warning' : 'ok';
}

function verdictOf(state: string | undefined, stateLvl: Level | undefined, f: Forecast, level: Level, allocationLvl: Level | undefined, freePercent: number | undefined): string {
  const s = state?.toLowerCase() ?? '';
  if (allocationLvl !== undefined && allocationLvl !== 'ok' && f.status !== 'full') return (freePercent ?? 100) < 1 ? 'full' : allocationLvl === 'critical' ? 'nearly full' : 'filling up';
  if (/full/.test(s) && stateLvl === 'critical') return 'full';
  if (f.status === 'full') return 'full';
  if (/degrad/.test(s)) return 'degraded';
  if (stateLvl === 'warning') return /warn|low|near/.test(s) ? 'nearly full' : (state ?? 'warning');
  if (stateLvl === 'critical') return state ?? 'critical';
  if (stateLvl === 'unknown') return `state “${state ?? ''}” not understood`;
  if (forecastLevel(f) !== 'ok') return `full in ${f.days ?? 0} days`;
  return level === 'unknown' ? 'unknown' : 'ok';
}

interface Figures {
  usable?: number | undefined;
  allocated?: number | undefined;
  consumed?: number | undefined;
  free?: number | undefined;
  freePercent?: number | undefined;
  state?: string | undefined;
  reason?: string | undefined;
  layouts?: ReadonlyArray<{ n: number; k: number }>;
}

function assessPool(name: string, fig: Figures, history: SeriesFit, now: number | undefined): PoolCapacity {
  const usable = fig.usable ?? (fig.allocated !== undefined && fig.free !== undefined ? fig.allocated + fig.free : undefined);
  const free = fig.free ?? (usable !== undefined && fig.allocated !== undefined ? Math.max(0, usable - fig.allocated) : undefined);
  const freePercent = fig.freePercent ?? (usable && free !== undefined ? round2((free / usable) * 100) : undefined);
  const allocatedPercent = usable && fig.allocated !== undefined ? (fig.allocated / usable) * 100 : freePercent !== undefined ? 100 - freePercent : undefined;
  const consumed = fig.consumed ?? history.lastListed;
  const fitted = forecastOf(history, usable ?? 0, now, fig.allocated);
  const reasons: string[] = [];
  const st = stateLevel(fig.state);
  let level: Level;
  let allocationLvl: Level | undefined;
  if (st) {
    level = st.level;
    const free = freePercent !== undefined ? ` (${round2(freePercent)} % free)` : '';
    if (!st.understood) reasons.push(`${name}: the system reports a state this app does not know, “${fig.state}”${free}`);
    else if (st.level !== 'ok') reasons.push(`${name}: the system reports ${fig.state}${fig.reason && !/^none$/i.test(fig.reason) ? `, ${fig.reason}` : ''}${free}`);
  } else if (allocatedPercent !== undefined) {
    // No state reported: judge by the allocated share, as the system would.
    level = allocationLvl = allocatedPercent >= ALLOCATED_CRITICAL ? 'critical' : allocatedPercent >= ALLOCATED_WARNING ? 'warning' : 'ok';
    if (level !== 'ok') reasons.push(`${name}: ${Math.round(allocatedPercent)} % allocated`);
  } else {
    level = 'unknown';
  }
  // A pool the system (or its last per cent of free space) calls full shows no date: full now.
  const judgedFull = (st?.level === 'critical' && /full/i.test(fig.state ?? '')) || (allocationLvl !== undefined && allocationLvl !== 'ok' && (freePercent ?? 100) < 1);
  const forecast: Forecast = judgedFull && fitted.status !== 'full' ? { ...fitted, status: 'full', basis: 'state', days: 0, range: { low: 0, high: 0 }, fullAt: now === undefined ? undefined : new Date(now).toISOString() } : fitted;
  const fl = forecastLevel(forecast);
  if (fl !== 'ok' && forecast.basis !== 'state') reasons.push(forecast.status === 'full' ? `${name}: no free space left` : `${name}: full in about ${forecast.days ?? 0} days at the current growth`);
  // Nothing reported but a history: the forecast is all there is to judge by.
  if (level === 'unknown' && !st && forecast.status !== 'insufficient-data') level = fl;
  else level = worse(level, fl);
  return {
    name,
    usable,
    allocated: fig.allocated,
    consumed,
    free,
    freePercent,
    allocatedPercent,
    state: fig.state,
    reason: fig.reason,
    layouts: fig.layouts ?? [],
    forecast,
    level,
    verdict: verdictOf(fig.state, st?.level, forecast, level, allocationLvl, freePercent),
    reasons,
  };
}

const NO_HISTORY = seriesFit([]);

/** The pool whose forecast ends first: full now before any date, then the fewest days. */
export function fillsFirst<P extends Pick<PoolCapacity, 'forecast'>>(pools: readonly P[]): P | undefined {
  let best: P | undefined;
  for (const p of pools) {
    const f = p.forecast;
    if ((f.status !== 'full' && f.status !== 'growing') || f.days === undefined) continue;
    if (!best || f.days < (best.forecast.days ?? Number.POSITIVE_INFINITY)) best = p;
  }
  return best;
}

function layoutsOf(values: readonly VirtualRaidValue[] | undefined): Array<{ n: number; k: number }> {
  return (values ?? []).flatMap((v) => (num(v.N) !== undefined && num(v.K) !== undefined ? [{ n: v.N as number, k: v.K as number }] : []));
}

const sum = (values: ReadonlyArray<number | undefined>): number | undefined => (values.every((v) => v !== undefined) ? values.reduce<number>((s, v) => s + (v as number), 0) : undefined);

/**
 * Every pool of one system, and the system as a whole, from whatever of its reads are at hand.
 * Usable bytes come from the health record's pool capacity, else allocated + free of the pool read;
 * the state from the provisioning read, else the health record's free percentage and states.
 */
export function assessCapacity(input: CapacityInput): SystemCapacity {
  const figures = new Map<string, Figures>();
  const at = (name: string): Figures => {
    let f = figures.get(name);
    if (!f) figures.set(name, (f = {}));
    return f;
  };
  for (const r of input.pools?.CapacityUsage ?? []) {
    if (!r.Name || r.Name === 'Total') continue;
    const f = at(r.Name);
    f.allocated = num(r.TotalAllocatedSizeInBytes);
    f.consumed = num(r.TotalConsumedSizeInBytes);
    f.free = num(r.FreeCapacityInBytes);
  }
  const cap = input.health?.CapacityUtilization;
  for (const p of cap?.PoolCapacity ?? []) {
    if (!p.PoolName) continue;
    const f = at(p.PoolName);
    const usable = num(p.CapacityInBytes);
    if (usable !== undefined && usable > 0) f.usable = usable;
    f.allocated ??= num(p.CapacityUsageInBytes);
  }
  for (const p of cap?.PoolCapacityVirtualRaidProvisioning ?? []) if (p.Name) at(p.Name).freePercent = num(p.FreeSpaceInPercentage);
  for (const p of input.provisioning ?? []) {
    if (!p.PoolName) continue;
    const f = at(p.PoolName);
    f.state = p.State;
    f.reason = p.Reason;
    f.freePercent = num(p.FreeSpaceInPercentage) ?? f.freePercent;
    f.layouts = layoutsOf(p.VirtualRaidValues);
  }
  const { pools: history, system } = historyFits(input.history ?? []);
  for (const name of history.keys()) at(name);

  const pools = [...figures.entries()]
    .map(([name, f]) => assessPool(name, f, history.get(name) ?? NO_HISTORY, input.now))
    .sort((a, b) => (a.level === b.level ? a.name.localeCompare(b.name) : worse(a.level, b.level) === a.level ? -1 : 1));

  const total =
    pools.length > 1
      ? assessPool(
          'All pools',
          {
            usable: sum(pools.map((p) => p.usable)),
            allocated: sum(pools.map((p) => p.allocated)),
            consumed: sum(pools.map((p) => p.consumed)),
            free: sum(pools.map((p) => p.free)),
          },
          system,
          input.now,
        )
      : undefined;
  if (total) {
    // The whole is as bad as its worst pool: one full pool refuses volumes whatever the others hold.
    const worstPool = pools[0] as PoolCapacity;
    // Its words are the worst pool's whenever that pool is worse than the sum reads ("hdd full", not
    // "filling up" beside a full pool).
    if (worstPool.level !== 'ok' && (total.verdict === 'ok' || worse(total.level, worstPool.level) !== total.level)) total.verdict = `${worstPool.name} ${worstPool.verdict}`;
    total.level = worse(total.level, worstPool.level);
    // Pools share no space: the line's days are those of the pool that fills first, named.
    const first = fillsFirst(pools);
    if (first) {
      total.forecast = first.forecast;
      total.fillsFirst = first.name;
    }
  }
  // A health record may report states without naming pools (no details): count them too.
  const reported = (cap?.ProvisioningStates ?? []).map((s) => ({ s, l: stateLevel(s) })).filter((x) => x.l && x.l.level !== 'ok');
  const unnamed = pools.some((p) => p.state !== undefined) ? [] : reported;
  const level = worst([...pools.map((p) => p.level), ...unnamed.map((x) => x.l?.level ?? 'ok')], pools.length || unnamed.length ? 'ok' : 'unknown');
  return {
    pools,
    total,
    level,
    reasons: [...pools.flatMap((p) => p.reasons), ...unnamed.map((x) => `a pool is ${x.s} (the system does not say which)`)],
  };
}
