import type { ResultCounts } from '../../app/compliance/waivers.js';
import type { ScorePoint } from '../../app/compliance/results.js';
import type { Database } from '../store/driver.js';

/** A score to keep: of one system, or of a scope (`system` ''; `siteId` '' for the fleet). */
export interface ScoreEntry {
  siteId: string;
  system: string;
  counts: ResultCounts;
  score?: number | undefined;
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
}

/**
 * The compliance score over time, in `reports.db`: each evaluation's score per system and for its
 * scope. A score equal to the last one kept (same baseline, same counts) within
 * {@link UNCHANGED_KEEP_MS} is not kept again.
 */
export class ScoreHistory {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(private readonly db: Database) {
    this.stmts = prepare(db);
  }

  /** Keeps the scores of one evaluation at `at` of the baseline `baseline` (its SHA-256); returns how many were kept. */
  record(at: Date, baseline: string, entries: readonly ScoreEntry[]): number {
    const iso = at.toISOString();
    let kept = 0;
    this.db.transaction(() => {
      const last = new Map(this.stmts.latest.all().map((r) => [JSON.stringify([r.site_id, r.system]), r]));
      for (const e of entries) {
        const counts = JSON.stringify(e.counts);
        const prev = last.get(JSON.stringify([e.siteId, e.system]));
        if (prev && prev.baseline === baseline && prev.counts === counts && at.getTime() - Date.parse(prev.at) < UNCHANGED_KEEP_MS) continue;
        this.stmts.insert.run(iso, baseline, e.siteId, e.system, counts, e.score ?? null);
        kept++;
      }
      if (kept) this.stmts.prune.run(new Date(at.getTime() - KEEP_DAYS * 86_400_000).toISOString());
    }).immediate();
    return kept;
  }

  /** The last `limit` scores kept of one system or scope, oldest first. */
  of(siteId: string, system: string, limit = 50): ScorePoint[] {
    return this.stmts.of
      .all(siteId, system, limit)
      .reverse()
      .map((r) => ({ at: r.at, siteId: r.site_id, system: r.system, counts: JSON.parse(r.counts) as ResultCounts, ...(r.score !== null ? { score: r.score } : {}) }));
  }
}

function prepare(db: Database) {
  return {
    latest: db.prepare<[], Row>('SELECT at, baseline, site_id, system, counts, score FROM compliance_scores WHERE id IN (SELECT MAX(id) FROM compliance_scores GROUP BY site_id, system)'),
    insert: db.prepare<[string, string, string, string, string, number | null]>('INSERT INTO compliance_scores (at, baseline, site_id, system, counts, score) VALUES (?, ?, ?, ?, ?, ?)'),
    prune: db.prepare<[string]>('DELETE FROM compliance_scores WHERE at < ?'),
    of: db.prepare<[string, string, number], Row>('SELECT at, baseline, site_id, system, counts, score FROM compliance_scores WHERE site_id = ? AND system = ? ORDER BY id DESC LIMIT ?'),
  };
}
