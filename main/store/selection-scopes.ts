import type { Database } from './driver.js';

/** What a site showed of its selection: each session's own (`session`) or shared by the user's sessions; and whether its list flags no system. */
export interface LearnedSelection {
  scope: 'session' | 'shared';
  unflagged: boolean;
}

/**
 * How long what a site showed of its selection is believed by a later process: a day. A site changes
 * this only with its software or its configuration; a day bounds how long a process trusts reads
 * without the check after them on a site that began to share its selection. A process learns it
 * again (two sessions, one select) when it is older or was learned at another URL.
 */
export const SELECTION_MAX_AGE_MS = 24 * 3_600_000;

/**
 * What each site showed of its selection (`main/core/site-connection.ts` `learnSelection`), kept in
 * the offline cache's file (`selection_scopes`) so the CLI, both shells and the monitor start
 * knowing it instead of learning it again in every process. Keyed by site and URL: a site moved to
 * another endpoint is learned anew.
 */
export class SelectionScopes {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(
    db: Database,
    private readonly maxAgeMs = SELECTION_MAX_AGE_MS,
  ) {
    this.stmts = prepare(db);
  }

  /** What the site showed at `baseUrl` within {@link SELECTION_MAX_AGE_MS} before `nowMs`; undefined when nothing (or only older) is kept. */
  get(siteId: string, baseUrl: string, nowMs: number): LearnedSelection | undefined {
    const row = this.stmts.get.get(siteId);
    if (!row || row.base_url !== baseUrl || (row.scope !== 'session' && row.scope !== 'shared')) return undefined;
    const at = Date.parse(row.learned_at);
    if (!Number.isFinite(at) || nowMs - at > this.maxAgeMs || at - nowMs > this.maxAgeMs) return undefined;
    return { scope: row.scope, unflagged: row.unflagged === 1 };
  }

  /** Keeps what the site showed, learned at `at`. */
  put(siteId: string, baseUrl: string, learned: LearnedSelection, at: Date): void {
    this.stmts.upsert.run(siteId, baseUrl, learned.scope, learned.unflagged ? 1 : 0, at.toISOString());
  }

  /** Forgets a site's (the site was removed). */
  deleteSite(siteId: string): void {
    this.stmts.delete.run(siteId);
  }
}

function prepare(db: Database) {
  return {
    get: db.prepare<[string], { base_url: string; scope: string; unflagged: number; learned_at: string }>('SELECT base_url, scope, unflagged, learned_at FROM selection_scopes WHERE site_id = ?'),
    upsert: db.prepare<[string, string, string, number, string]>(
      `INSERT INTO selection_scopes (site_id, base_url, scope, unflagged, learned_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (site_id) DO UPDATE SET base_url = excluded.base_url, scope = excluded.scope, unflagged = excluded.unflagged, learned_at = excluded.learned_at`,
    ),
    delete: db.prepare<[string]>('DELETE FROM selection_scopes WHERE site_id = ?'),
  };
}
