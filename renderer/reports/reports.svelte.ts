import { downloadText } from '../lib/download.js';
import type { Request, Response } from '../../app/ipc/contract.js';
import type { ReportSummary } from '../../app/reports/schema.js';
import { api } from '../lib/api.js';
import { errorText } from '../lib/format.js';

export type StoredReport = Response<'reports:open'>;
export type ExportResult = Response<'reports:export'>;
export type ReportDiff = Response<'reports:diff'>;
export type GenerateRequest = Request<'reports:generate'>;
export type ExportFormat = Request<'reports:export'>['formats'][number];

/** Kinds whose reports hold a configuration snapshot, so two of them can be compared. */
export const COMPARABLE_KINDS: readonly string[] = ['config', 'audit'];

/**
 * The reports view's state: history, the report on screen, its last export and the last
 * comparison. Lives as long as the window, so a report being generated is not lost when the admin
 * looks elsewhere meanwhile.
 */
export class ReportsState {
  history = $state.raw<ReportSummary[]>([]);
  historyLoaded = $state(false);
  historyError = $state<string | undefined>();

  /** The report on screen (just generated, or reopened from the history). */
  current = $state.raw<StoredReport | undefined>();
  /** Counts reports shown (generated or opened), so the view knows when to move focus to one. */
  shown = $state(0);
  generating = $state(false);
  generateError = $state<string | undefined>();
  opening = $state<number | undefined>();
  openError = $state<string | undefined>();

  exporting = $state(false);
  exported = $state.raw<ExportResult | undefined>();
  exportError = $state<string | undefined>();

  diff = $state.raw<ReportDiff | undefined>();
  comparing = $state(false);
  diffError = $state<string | undefined>();

  /** Bumped by every open/generate, so an answer that arrives after a newer request is dropped. */
  #seq = 0;

  async loadHistory(): Promise<void> {
    try {
      this.history = await api().invoke('reports:list', {});
      this.historyError = undefined;
    } catch (err) {
      this.historyError = errorText(err);
    } finally {
      this.historyLoaded = true;
    }
  }

  /** Builds and stores a report, then shows it. Fresh reports refresh the sites first (slow). */
  async generate(request: GenerateRequest): Promise<void> {
    if (this.generating) return;
    const seq = ++this.#seq;
    this.generating = true;
    this.generateError = undefined;
    try {
      const report = await api().invoke('reports:generate', request);
      if (seq === this.#seq) this.#show(report);
    } catch (err) {
      this.generateError = errorText(err);
    } finally {
      this.generating = false;
    }
    await this.loadHistory();
  }

  /** Reopens a stored report. */
  async open(id: number): Promise<void> {
    const seq = ++this.#seq;
    this.opening = id;
    this.openError = undefined;
    try {
      const report = await api().invoke('reports:open', { id });
      if (seq === this.#seq) this.#show(report);
    } catch (err) {
      if (seq === this.#seq) this.openError = errorText(err);
    } finally {
      if (this.opening === id) this.opening = undefined;
    }
  }

  /**
   * Exports the report on screen in `formats` with its manifest: main asks where in its folder
   * dialog (Electron), or hands over one ZIP that is downloaded here (browser shell).
   */
  async exportCurrent(formats: readonly ExportFormat[], download: typeof downloadText = downloadText): Promise<void> {
    const report = this.current;
    if (!report || this.exporting) return;
    this.exporting = true;
    this.exportError = undefined;
    this.exported = undefined;
    try {
      const result = await api().invoke('reports:export', { id: report.id, formats: [...formats] });
      if (result.kind === 'download') download(result);
      if (this.current?.id === report.id) this.exported = result;
    } catch (err) {
      this.exportError = errorText(err);
    } finally {
      this.exporting = false;
    }
  }

  /** Configuration changes from stored report `from` to `to`. */
  async compare(from: number, to: number): Promise<void> {
    this.comparing = true;
    this.diffError = undefined;
    try {
      this.diff = await api().invoke('reports:diff', { from, to });
    } catch (err) {
      this.diff = undefined;
      this.diffError = errorText(err);
    } finally {
      this.comparing = false;
    }
  }

  #show(report: StoredReport): void {
    this.current = report;
    this.shown++;
    // An export result describes the report it was made from; it must not sit under another one.
    this.exported = undefined;
    this.exportError = undefined;
  }
}
