import { SYSTEM_STATES, type SystemState, type SystemStatus } from '../../app/domain/site.js';
import type { Database } from './driver.js';

/**
 * Each system's last refresh outcome (ok, or what failed and when), kept in the offline cache's file
 * (`system_outcomes`). Every process of one data dir (the CLI, either shell, a report) starts from
 * it, so a report made after `fleetdeck refresh` in another process says what that refresh found.
 * Statuses are stored as their shape (redacted already: a status carries no secret), without the
 * process's own sequence number or a refresh's progress.
 */
export class SystemOutcomes {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(db: Database) {
    this.stmts = prepare(db);
  }

  /** Every recorded outcome; a row that no longer reads as a status is skipped. */
  all(): SystemStatus[] {
    const out: SystemStatus[] = [];
    for (const row of this.stmts.all.all()) {
      const status = statusOf(row);
      if (status) out.push(status);
    }
    return out;
  }

  /** The recorded outcomes of one site's systems; a row that no longer reads as a status is skipped. */
  ofSite(siteId: string): SystemStatus[] {
    const out: SystemStatus[] = [];
    for (const row of this.stmts.ofSite.all(siteId)) {
      const status = statusOf(row);
      if (status) out.push(status);
    }
    return out;
  }

  /** Records a system's outcome, replacing the one before. A state in progress (`refreshing`) is no outcome. */
  put(status: SystemStatus): void {
    if (status.state === 'refreshing') return;
    const { seq: _seq, progress: _progress, ...kept } = status;
    this.stmts.upsert.run(status.siteId, status.system, JSON.stringify(kept));
  }

  /** Forgets a site's outcomes (the site was removed). */
  deleteSite(siteId: string): void {
    this.stmts.deleteSite.run(siteId);
  }
}

const TEXT_FIELDS = ['lastSuccessAt', 'lastErrorAt', 'lastError', 'truncated', 'unlistedSince'] as const;
const STATES: ReadonlySet<string> = new Set(SYSTEM_STATES);

/**
 * A row as a status, checked field by field (a start reads one per system, before the window's
 * first frame: a schema's parse costs more than the statuses); undefined when it is not one, such
 * as a row of a damaged file: the system then starts as its cache says.
 */
function statusOf(row: { site_id: string; system: string; status: string }): SystemStatus | undefined {
  let value: unknown;
  try {
    value = JSON.parse(row.status);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v['siteId'] !== row.site_id || v['system'] !== row.system || typeof v['state'] !== 'string' || !STATES.has(v['state'])) return undefined;
  const status: SystemStatus = { siteId: row.site_id, system: row.system, state: v['state'] as SystemState };
  for (const field of TEXT_FIELDS) {
    const text = v[field];
    if (text === undefined) continue;
    if (typeof text !== 'string') return undefined;
    status[field] = text;
  }
  const offset = v['clockOffsetMs'];
  if (typeof offset === 'number' && Number.isFinite(offset)) status.clockOffsetMs = offset;
  const source = v['clockSource'];
  if (source === 'node-time' || source === 'records' || source === 'date-header') status.clockSource = source;
  const scale = v['percentScale'];
  if (scale === 'percent' || scale === 'fraction') status.percentScale = scale;
  if (typeof v['dayFirst'] === 'boolean') status.dayFirst = v['dayFirst'];
  return status;
}

function prepare(db: Database) {
  return {
    all: db.prepare<[], { site_id: string; system: string; status: string }>('SELECT site_id, system, status FROM system_outcomes'),
    ofSite: db.prepare<[string], { site_id: string; system: string; status: string }>('SELECT site_id, system, status FROM system_outcomes WHERE site_id = ?'),
    upsert: db.prepare<[string, string, string]>(
      `INSERT INTO system_outcomes (site_id, system, status) VALUES (?, ?, ?)
       ON CONFLICT (site_id, system) DO UPDATE SET status = excluded.status`,
    ),
    deleteSite: db.prepare<[string]>('DELETE FROM system_outcomes WHERE site_id = ?'),
  };
}
