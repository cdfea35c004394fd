import { stateChanges, type CheckState, type KeptChange } from '../../app/compliance/changes.js';
import type { ResultCounts } from '../../app/compliance/waivers.js';
import type { ScorePoint } from '../../app/compliance/results.js';
import type { Database } from '../store/driver.js';

/** A score to keep: of one system, or of a scope (`system` ''; `siteId` '' for the fleet). */
export interface ScoreEntry {
  siteId: string;
  system: string;
  counts: ResultCounts;
  score?: number | undefined;
  /** Each check's state, of a system (not of a scope): what the next evaluation compares with. */
  results?: Readonly<Record<string, CheckState>> | undefined;
}

/**
 * An unchanged score is kept again only after this long: a window re-evaluating after every poll
 * keeps a point an hour, not one a minute, while every change is kept when it happens.
 */
export const UNCHANGED_KEEP_MS = 3_600_000;

/** Scores older than this are dropped when new ones are kept (two years: an audit cycle and the one before). */
export const KEEP_DAYS = 730;

interface Row {
  at: string;
  baseline: string;
  site_id: string;
  system: string;
  counts: string;
  score: number | null;
  results: string | null;
  changes: string | null;
}

/**
 * The compliance score over time, in `reports.db`: each evaluation's score per system and for its
 * scope, and per system each check's state and its last change. An evaluation equal to the last
 * one kept (same baseline, counts and check states) within {@link UNCHANGED_KEEP_MS} is not kept
 * again.
 */
export class ScoreHistory {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(private readonly db: Database) {
    this.stmts = prepare(db);
  }

  /**
   * Keeps the scores of one evaluation at `at` of the baseline `baseline` (its SHA-256). Returns how
   * many were kept and, per system (key {@link systemKey}), its last change as of this evaluation.
   */
  record(at: Date, baseline: string, entries: readonly ScoreEntry[]): { kept: number; changes: Map<string, KeptChange> } {
    const iso = at.toISOString();
    let kept = 0;
    const changes = new Map<string, KeptChange>();
    this.db.transaction(() => {
      const last = this.latest();
      for (const e of entries) {
        const prev = last.get(systemKey(e.siteId, e.system));
        const next = planEntry(at, baseline, e, prev);
        if (next.changes) changes.set(systemKey(e.siteId, e.system), next.changes);
        if (!next.keep) continue;
        this.stmts.insert.run(iso, baseline, e.siteId, e.system, next.counts, e.score ?? null, next.results, next.changes ? JSON.stringify(next.changes) : null);
        kept++;
      }
      if (kept) this.stmts.prune.run(new Date(at.getTime() - KEEP_DAYS * 86_400_000).toISOString());
    }).immediate();
    return { kept, changes };
  }

  /** Per system, its last change as of an evaluation at `at` that is not kept (what {@link record} would answer). */
  changesOf(at: Date, baseline: string, entries: readonly ScoreEntry[]): Map<string, KeptChange> {
    const last = this.latest();
    const changes = new Map<string, KeptChange>();
    for (const e of entries) {
      const c = planEntry(at, baseline, e, last.get(systemKey(e.siteId, e.system))).changes;
      if (c) changes.set(systemKey(e.siteId, e.system), c);
    }
    return changes;
  }

  private latest(): Map<string, Row> {
    return new Map(this.stmts.latest.all().map((r) => [systemKey(r.site_id, r.system), r]));
  }

  /** The last `limit` scores kept of one system or scope, oldest first. */
  of(siteId: string, system: string, limit = 50): ScorePoint[] {
    return this.stmts.of
      .all(siteId, system, limit)
      .reverse()
      .map((r) => ({ at: r.at, siteId: r.site_id, system: r.system, counts: JSON.parse(r.counts) as ResultCounts, ...(r.score !== null ? { score: r.score } : {}) }));
  }
}

/** The key of one system (or scope) in the maps {@link ScoreHistory.record} answers. */
export function systemKey(siteId: string, system: string): string {
  return JSON.stringify([siteId, system]);
}

/**
 * Whether an entry is kept, and its last change: the checks whose state differs from the last kept
 * evaluation's, else the change that evaluation carried (nothing moved since). An evaluation of
 * another baseline (another file, or the file edited) is no basis: a check may have changed its
 * rule under the same id, so nothing is said to have changed.
 */
function planEntry(at: Date, baseline: string, e: ScoreEntry, prev: Row | undefined): { keep: boolean; counts: string; results: string | null; changes: KeptChange | undefined } {
  const counts = JSON.stringify(e.counts);
  const results = e.results ? JSON.stringify(e.results) : null;
  const comparable = prev !== undefined && prev.baseline === baseline;
  let changes = comparable && prev.changes ? (JSON.parse(prev.changes) as KeptChange) : undefined;
  if (comparable && e.results && prev.results && prev.results !== results) {
    const moved = stateChanges(JSON.parse(prev.results) as Record<string, CheckState>, e.results);
    if (moved.length) changes = { since: prev.at, at: at.toISOString(), checks: moved };
  }
  const same = prev !== undefined && prev.baseline === baseline && prev.counts === counts && prev.results === results && at.getTime() - Date.parse(prev.at) < UNCHANGED_KEEP_MS;
  return { keep: !same, counts, results, changes };
}

function prepare(db: Database) {
  return {
    latest: db.prepare<[], Row>('SELECT at, baseline, site_id, system, counts, score, results, changes FROM compliance_scores WHERE id IN (SELECT MAX(id) FROM compliance_scores GROUP BY site_id, system)'),
    insert: db.prepare<[string, string, string, string, string, number | null, string | null, string | null]>(
      'INSERT INTO compliance_scores (at, baseline, site_id, system, counts, score, results, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    prune: db.prepare<[string]>('DELETE FROM compliance_scores WHERE at < ?'),
    of: db.prepare<[string, string, number], Row>('SELECT at, baseline, site_id, system, counts, score, results, changes FROM compliance_scores WHERE site_id = ? AND system = ? ORDER BY id DESC LIMIT ?'),
  };
}
