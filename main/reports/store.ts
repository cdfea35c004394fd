import { reportModelSchema, type ReportSummary } from '../../app/reports/schema.js';
import type { ReportKind, ReportModel } from '../../app/reports/model.js';
import { redact, type Redacted } from '../../app/redact.js';
import type { Database } from '../store/driver.js';
import { sha256 } from './manifest.js';

interface Row {
  id: number;
  kind: string;
  title: string;
  generated_at: string;
  generated_by: string;
  source: string;
  sites: string;
  systems: number;
  model: string;
  sha256: string;
}

/** A stored report: its listing and its model. */
export interface StoredReport {
  summary: ReportSummary;
  model: Redacted<ReportModel>;
}

/**
 * The report history in the data directory's database: every generated report is kept with its
 * model (redacted JSON), so it can be listed, reopened, exported again and compared.
 */
export class ReportStore {
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(private readonly db: Database) {
    this.stmts = prepare(db);
  }

  /** Stores a report and returns its listing (with the new id). */
  save(model: Redacted<ReportModel>): ReportSummary {
    const json = JSON.stringify(model);
    const sites = JSON.stringify(model.scope.sites.map((s) => ({ id: s.id, name: s.name })));
    const hash = sha256(json);
    const info = this.stmts.insert.run(model.kind, model.title, model.generatedAt, model.generatedBy, model.source, sites, model.scope.systems.length, json, hash);
    // The listing alone: the model just written is not read back (megabytes for a large pack).
    return this.summaryOf(this.stmts.summaryById.get(Number(info.lastInsertRowid)) as Row);
  }

  /** Every stored report, newest first (without models). */
  list(): ReportSummary[] {
    return this.stmts.list.all().map((r) => this.summaryOf(r));
  }

  /** A stored report's listing without its model (nothing parsed); undefined when no report has this id. */
  summary(id: number): ReportSummary | undefined {
    const row = this.stmts.summaryById.get(id);
    return row ? this.summaryOf(row) : undefined;
  }

  /** A stored report; undefined when no report has this id. @throws Error when its stored model is damaged. */
  get(id: number): StoredReport | undefined {
    const row = this.stmts.byId.get(id);
    if (!row) return undefined;
    const parsed = reportModelSchema.safeParse(JSON.parse(row.model) as unknown);
    if (!parsed.success) throw new Error(`report ${id} is stored in a form this Fleetdeck cannot read (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    // Redacted once on the way in from disk, so a history written by an older Fleetdeck (or edited)
    // cannot carry a secret to a window or an export; the writers then take it as it is.
    return { summary: this.summaryOf(row), model: redact(parsed.data) };
  }

  private summaryOf(row: Row): ReportSummary {
    return {
      id: row.id,
      kind: row.kind as ReportKind,
      title: row.title,
      generatedAt: row.generated_at,
      generatedBy: row.generated_by,
      source: row.source === 'fresh' ? 'fresh' : 'cache',
      sites: sitesOf(row).map((s) => s.name),
      siteIds: sitesOf(row).map((s) => s.id),
      systems: row.systems,
      sha256: row.sha256,
    };
  }
}

function sitesOf(row: Row): Array<{ id: string; name: string }> {
  try {
    const v = JSON.parse(row.sites) as unknown;
    return Array.isArray(v) ? (v as Array<{ id: string; name: string }>).filter((s) => typeof s?.id === 'string' && typeof s.name === 'string') : [];
  } catch {
    return [];
  }
}

function prepare(db: Database) {
  const columns = 'id, kind, title, generated_at, generated_by, source, sites, systems, sha256';
  return {
    insert: db.prepare<[string, string, string, string, string, string, number, string, string]>(
      'INSERT INTO reports (kind, title, generated_at, generated_by, source, sites, systems, model, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    byId: db.prepare<[number], Row>('SELECT * FROM reports WHERE id = ?'),
    summaryById: db.prepare<[number], Row>(`SELECT ${columns}, '' AS model FROM reports WHERE id = ?`),
    list: db.prepare<[], Row>(`SELECT ${columns}, '' AS model FROM reports ORDER BY id DESC`),
  };
}
