import { alertState, type Alert, type AlertFilter } from '../../app/alerts/alert.js';
import type { AlertCondition, Evaluation } from '../../app/alerts/evaluate.js';
import { ruleOverrideSchema, type RuleKind, type RuleOverride, type RuleScope, type ScopedOverride } from '../../app/alerts/rules.js';
import { InputError } from '../../app/errors.js';
import { LEVELS_BY_RANK } from '../../app/health/level.js';
import { DataVersionMemo } from '../store/data-version-memo.js';
import type { Database } from '../store/driver.js';

/** Alerts are listed worst first (the order of the levels), newest first within a level. */
const BY_LEVEL = `CASE level ${LEVELS_BY_RANK.map((l, i) => `WHEN '${l}' THEN ${i}`).join(' ')} ELSE ${LEVELS_BY_RANK.length} END`;

interface Row {
  id: number;
  rule: string;
  site_id: string;
  system: string;
  subject: string;
  level: string;
  message: string;
  raised_at: string;
  last_seen_at: string;
  cleared_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  snoozed_until: string | null;
}

/** What one reconciliation changed. */
export interface Reconciled {
  /** Alerts raised now: each a condition not seen while it lasted before. */
  raised: Alert[];
  /** Alerts whose condition ended now. */
  cleared: Alert[];
}

const NOTIFY_KEY = 'desktop-notifications';

/**
 * How precise an alert's "last seen" is: an evaluation that sees a condition unchanged writes its
 * time only once the stored one is this old, so a poll that changes nothing writes nothing.
 */
export const SEEN_PRECISION_MS = 10 * 60_000;

/**
 * The alerts and the rules of `alerts.db`: an alert is raised once per condition (rule + system +
 * subject) while the condition lasts — a unique index holds that across processes — kept up to
 * date by later evaluations, acknowledged, snoozed, and cleared (kept as history) when an
 * evaluation that could see it no longer does.
 */
export class AlertStore {
  private readonly stmts: ReturnType<typeof prepareStatements>;
  /**
   * What {@link openCount} counts from, counted once from the table: kept right by every
   * reconciliation after its commit, dropped by every other write of this store and when another
   * connection (another process) has committed to the file since (SQLite's `data_version`). So a
   * connection has one AlertStore, alerts are written only through it, and a reconciliation is
   * never made inside a transaction of its caller.
   */
  private readonly counts: DataVersionMemo<OpenCounts>;
  /** The rule overrides, read once per change of the file (the engine asks after every poll): dropped by this store's own writes of them. */
  private readonly rules: DataVersionMemo<readonly ScopedOverride[]>;

  constructor(private readonly db: Database) {
    this.stmts = prepareStatements(db);
    this.counts = new DataVersionMemo(db);
    this.rules = new DataVersionMemo(db);
  }

  /**
   * Applies one evaluation of a system: raises its new conditions, refreshes the ones still seen
   * (their level and message; their last-seen time to within {@link SEEN_PRECISION_MS}), clears the
   * alerts of assessed rules whose condition is gone. One IMMEDIATE transaction, so two processes
   * evaluating the same system raise an alert once; none at all when there is nothing to change.
   */
  reconcile(siteId: string, system: string, evaluation: Evaluation, now: Date): Reconciled {
    const at = now.toISOString();
    const assessed = new Set<RuleKind>(evaluation.assessed);
    const conditions = dedupe(evaluation.conditions);
    // Looked at first without the write lock: the usual poll finds nothing to change and writes nothing.
    if (!plan(this.stmts.active.all(siteId, system), conditions, assessed, now).some) return { raised: [], cleared: [] };
    const raised: Row[] = [];
    const cleared: Row[] = [];
    this.db
      .transaction(() => {
        // Read again under the lock: another process may have reconciled the same system meanwhile.
        const p = plan(this.stmts.active.all(siteId, system), conditions, assessed, now);
        for (const c of p.raise) {
          const id = Number(this.stmts.insert.run(c.rule, siteId, system, c.subject, c.level, c.message, at, at).lastInsertRowid);
          raised.push({ id, rule: c.rule, site_id: siteId, system, subject: c.subject, level: c.level, message: c.message, raised_at: at, last_seen_at: at, cleared_at: null, acknowledged_at: null, acknowledged_by: null, snoozed_until: null });
        }
        for (const { row, c } of p.update) this.stmts.update.run(c.level, c.message, at, row.id);
        for (const r of p.clear) {
          this.stmts.clear.run(at, r.id);
          cleared.push({ ...r, cleared_at: at });
        }
      })
      .immediate();
    // Committed: the counts move by what was written (a new alert is neither acknowledged nor
    // snoozed). Counts older than another connection's commit keep their version, so they are
    // counted again when next asked for.
    const counts = this.counts.held();
    if (counts) {
      counts.unacknowledged += raised.length;
      for (const r of cleared) {
        if (r.acknowledged_at !== null) continue;
        counts.unacknowledged--;
        counts.snoozed.delete(r.id);
      }
    }
    return { raised: raised.map((r) => toAlert(r, now.getTime())), cleared: cleared.map((r) => toAlert(r, now.getTime())) };
  }

  /** Clears every active alert for which `gone` says its system no longer exists; returns them. */
  clearWhere(gone: (siteId: string, system: string) => boolean, now: Date): Alert[] {
    const rows = this.db
      .prepare<[], Row>('SELECT * FROM alerts WHERE cleared_at IS NULL')
      .all()
      .filter((r) => gone(r.site_id, r.system));
    const clear = this.stmts.clear;
    this.counts.clear();
    this.db.transaction(() => {
      for (const r of rows) clear.run(now.toISOString(), r.id);
    })();
    return this.byIds(rows.map((r) => r.id), now.getTime());
  }

  /** Alerts matching a filter, worst level first, then newest first. `now` decides whether a snooze still holds. */
  list(filter: AlertFilter, now: number): Alert[] {
    const where: string[] = [];
    const args: Array<string | number> = [];
    if (filter.site !== undefined) {
      where.push('site_id = ?');
      args.push(filter.site);
    }
    if (filter.system !== undefined) {
      where.push('system = ?');
      args.push(filter.system);
    }
    if (filter.rule !== undefined) {
      where.push('rule = ?');
      args.push(filter.rule);
    }
    if (filter.level !== undefined) {
      where.push('level = ?');
      args.push(filter.level);
    }
    if (filter.state === 'cleared') where.push('cleared_at IS NOT NULL');
    else if (filter.state !== undefined) where.push('cleared_at IS NULL');
    const sql = `SELECT * FROM alerts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${BY_LEVEL}, id DESC`;
    const state = filter.state;
    const rows = this.db
      .prepare<Array<string | number>, Row>(sql)
      .all(...args)
      .map((r) => toAlert(r, now))
      .filter((a) => state === undefined || state === 'active' || state === 'cleared' || a.state === state);
    return filter.limit !== undefined ? rows.slice(0, filter.limit) : rows;
  }

  /** Alerts open now: not cleared, not acknowledged, not snoozed. */
  openCount(now: number): number {
    // Every evaluation that changed something asks: counted from the counts held ({@link counts}),
    // where only the snoozed alerts are looked at (whether their snooze still holds, as `alertState` decides it).
    const counts = this.counts.get(this.countOpen);
    let open = counts.unacknowledged;
    for (const until of counts.snoozed.values()) if (alertState({ snoozedUntil: until }, now) !== 'open') open--;
    return open;
  }

  /** The counts, counted from the table in one read transaction (both of the same state of the file). */
  private readonly countOpen = (): OpenCounts =>
    this.db.transaction(() => ({
      unacknowledged: this.stmts.unacknowledgedCount.get()?.n ?? 0,
      snoozed: new Map(this.stmts.snoozedUnacknowledged.all().map((r) => [r.id, r.snoozed_until])),
    }))();

  /**
   * Acknowledges alerts that are not cleared; answers them as they are now.
   * @throws InputError `not-found` for an id that names no alert
   */
  acknowledge(ids: readonly number[], user: string, now: Date): Alert[] {
    this.requireIds(ids);
    const stmt = this.db.prepare<[string, string, number]>('UPDATE alerts SET acknowledged_at = ?, acknowledged_by = ? WHERE id = ? AND cleared_at IS NULL AND acknowledged_at IS NULL');
    this.counts.clear();
    this.db.transaction(() => {
      for (const id of ids) stmt.run(now.toISOString(), user, id);
    })();
    return this.byIds(ids, now.getTime());
  }

  /**
   * Snoozes alerts until `until` (a time after `now`), or ends their snooze with `null`.
   * @throws InputError `validation` for a time not after now; `not-found` for an unknown id
   */
  snooze(ids: readonly number[], until: Date | null, now: Date): Alert[] {
    if (until !== null && !(until.getTime() > now.getTime())) throw new InputError(`snooze until a time after now (${now.toISOString()}), got ${Number.isNaN(until.getTime()) ? 'an invalid time' : until.toISOString()}`);
    this.requireIds(ids);
    const stmt = this.db.prepare<[string | null, number]>('UPDATE alerts SET snoozed_until = ? WHERE id = ? AND cleared_at IS NULL');
    this.counts.clear();
    this.db.transaction(() => {
      for (const id of ids) stmt.run(until ? until.toISOString() : null, id);
    })();
    return this.byIds(ids, now.getTime());
  }

  /** Every stored rule override with its scope. A row that no longer parses is skipped: the defaults then apply there. Never change what it holds. */
  overrides(): readonly ScopedOverride[] {
    return this.rules.get(() => this.readOverrides());
  }

  private readOverrides(): ScopedOverride[] {
    const out: ScopedOverride[] = [];
    for (const r of this.stmts.overrides.all()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.override);
      } catch {
        continue;
      }
      const override = ruleOverrideSchema.safeParse(parsed);
      if (!override.success) continue;
      const scope: RuleScope = r.site_id === '' ? { level: 'fleet' } : r.system === '' ? { level: 'site', siteId: r.site_id } : { level: 'system', siteId: r.site_id, system: r.system };
      out.push({ scope, override: override.data });
    }
    return out;
  }

  /** Replaces the override at one scope; `null` (or an empty override) removes it, so the wider scope applies again. */
  setOverride(scope: RuleScope, override: RuleOverride | null): void {
    const siteId = scope.level === 'fleet' ? '' : scope.siteId;
    const system = scope.level === 'system' ? scope.system : '';
    const empty = override === null || Object.values(override).every((v) => v === undefined || Object.values(v).every((x) => x === undefined));
    this.rules.clear();
    if (empty) this.db.prepare<[string, string]>('DELETE FROM alert_rules WHERE site_id = ? AND system = ?').run(siteId, system);
    else {
      this.db
        .prepare<[string, string, string]>('INSERT INTO alert_rules (site_id, system, override) VALUES (?, ?, ?) ON CONFLICT (site_id, system) DO UPDATE SET override = excluded.override')
        .run(siteId, system, JSON.stringify(override));
    }
  }

  /** Whether each new alert raises a desktop notification in a window of the whole fleet (default on). */
  get notify(): boolean {
    return this.setting(NOTIFY_KEY) !== 'off';
  }

  set notify(on: boolean) {
    this.setSetting(NOTIFY_KEY, on ? 'on' : 'off');
  }

  /**
   * Whether each new alert raises a desktop notification in a window scoped to `siteId`: that
   * site's own choice once one of its windows made it, else the fleet's. A site's choice never
   * changes the fleet's, nor another site's.
   */
  notifyOf(siteId: string): boolean {
    const own = this.setting(`${NOTIFY_KEY}:${siteId}`);
    return own === undefined ? this.notify : own !== 'off';
  }

  setNotifyOf(siteId: string, on: boolean): void {
    this.setSetting(`${NOTIFY_KEY}:${siteId}`, on ? 'on' : 'off');
  }

  private setting(key: string): string | undefined {
    return this.db.prepare<[string], { value: string }>('SELECT value FROM alert_settings WHERE key = ?').get(key)?.value;
  }

  private setSetting(key: string, value: string): void {
    this.db.prepare<[string, string]>('INSERT INTO alert_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  private requireIds(ids: readonly number[]): void {
    const known = new Set(this.byIds(ids, 0).map((a) => a.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw new InputError(`no alert with id ${missing.join(', ')}`, 'not-found');
  }

  private byIds(ids: readonly number[], now: number): Alert[] {
    if (!ids.length) return [];
    return ids.map((id) => this.stmts.byId.get(id)).filter((r): r is Row => r !== undefined).map((r) => toAlert(r, now));
  }
}

function prepareStatements(db: Database) {
  return {
    active: db.prepare<[string, string], Row>('SELECT * FROM alerts WHERE site_id = ? AND system = ? AND cleared_at IS NULL'),
    insert: db.prepare<[string, string, string, string, string, string, string, string]>(
      'INSERT INTO alerts (rule, site_id, system, subject, level, message, raised_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    update: db.prepare<[string, string, string, number]>('UPDATE alerts SET level = ?, message = ?, last_seen_at = ? WHERE id = ?'),
    clear: db.prepare<[string, number]>('UPDATE alerts SET cleared_at = ? WHERE id = ?'),
    // Prepared once: preparing it for each reconciliation that raised something was most of its cost.
    byId: db.prepare<[number], Row>('SELECT * FROM alerts WHERE id = ?'),
    unacknowledgedCount: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM alerts WHERE cleared_at IS NULL AND acknowledged_at IS NULL'),
    snoozedUnacknowledged: db.prepare<[], { id: number; snoozed_until: string }>('SELECT id, snoozed_until FROM alerts WHERE cleared_at IS NULL AND acknowledged_at IS NULL AND snoozed_until IS NOT NULL'),
    overrides: db.prepare<[], { site_id: string; system: string; override: string }>('SELECT * FROM alert_rules ORDER BY site_id, system'),
  };
}

/** What the open count is counted from. */
interface OpenCounts {
  /** Alerts neither cleared nor acknowledged. */
  unacknowledged: number;
  /** The snooze end of each of those that has one, by id. */
  snoozed: Map<number, string>;
}

/** What reconciling an evaluation with a system's active alerts writes; `some` when anything. */
function plan(active: readonly Row[], conditions: readonly AlertCondition[], assessed: ReadonlySet<RuleKind>, now: Date) {
  const byKey = new Map(active.map((r) => [keyOf(r.rule, r.subject), r]));
  const raise: AlertCondition[] = [];
  const update: Array<{ row: Row; c: AlertCondition }> = [];
  for (const c of conditions) {
    const row = byKey.get(keyOf(c.rule, c.subject));
    if (!row) raise.push(c);
    else if (row.level !== c.level || row.message !== c.message || now.getTime() - Date.parse(row.last_seen_at) >= SEEN_PRECISION_MS) update.push({ row, c });
  }
  const seen = new Set(conditions.map((c) => keyOf(c.rule, c.subject)));
  const clear = active.filter((r) => assessed.has(r.rule as RuleKind) && !seen.has(keyOf(r.rule, r.subject)));
  return { raise, update, clear, some: raise.length + update.length + clear.length > 0 };
}

function keyOf(rule: string, subject: string): string {
  return `${rule}\u0000${subject}`;
}

/** One condition per key: two drives of one name on a node would otherwise raise twice. */
function dedupe(conditions: readonly AlertCondition[]): AlertCondition[] {
  const out = new Map<string, AlertCondition>();
  for (const c of conditions) if (!out.has(keyOf(c.rule, c.subject))) out.set(keyOf(c.rule, c.subject), c);
  return [...out.values()];
}

function toAlert(r: Row, now: number): Alert {
  const times = { clearedAt: r.cleared_at ?? undefined, acknowledgedAt: r.acknowledged_at ?? undefined, snoozedUntil: r.snoozed_until ?? undefined };
  return {
    id: r.id,
    rule: r.rule as RuleKind,
    siteId: r.site_id,
    system: r.system,
    subject: r.subject,
    level: r.level === 'critical' || r.level === 'unknown' ? r.level : 'warning',
    message: r.message,
    state: alertState(times, now),
    raisedAt: r.raised_at,
    lastSeenAt: r.last_seen_at,
    ...(r.cleared_at ? { clearedAt: r.cleared_at } : {}),
    ...(r.acknowledged_at ? { acknowledgedAt: r.acknowledged_at } : {}),
    ...(r.acknowledged_by ? { acknowledgedBy: r.acknowledged_by } : {}),
    ...(r.snoozed_until ? { snoozedUntil: r.snoozed_until } : {}),
  };
}
