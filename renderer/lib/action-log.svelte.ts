import type { ActionEntry, ActionExportFormat } from '../../app/domain/action.js';
import type { Response } from '../../app/ipc/contract.js';
import { api } from './api.js';
import { downloadText } from './download.js';
import { ACTION_PAGE_SIZE, EMPTY_FORM, requestOf, unlisted, type ActionLogForm, type ActionLogRequest } from './action-log.js';
import { errorText, nowIso } from './format.js';

export type ActionLogVerification = Response<'log:verify'>;

/**
 * The action log view's state: the filter applied, the pages read (filtered and paged in main),
 * the record opened, the last chain check and the last export. Lives as long as the window.
 */
export class ActionLogState {
  form = $state<ActionLogForm>({ ...EMPTY_FORM, results: [] });
  formProblem = $state<string | undefined>();
  applied = $state.raw<ActionLogRequest>({});
  records = $state.raw<ActionEntry[]>([]);
  total = $state(0);
  /** When the first page was read: the data age of the list. */
  at = $state<string | undefined>();
  loaded = $state(false);
  loading = $state(false);
  error = $state<string | undefined>();
  selected = $state.raw<ActionEntry | undefined>();

  verification = $state.raw<ActionLogVerification | undefined>();
  verifiedAt = $state<string | undefined>();
  verifying = $state(false);
  verifyError = $state<string | undefined>();

  exporting = $state<ActionExportFormat | undefined>();
  exportNote = $state<string | undefined>();
  exportError = $state<string | undefined>();

  /** Bumped by every new filter, so a page that arrives after a newer filter is dropped. */
  #seq = 0;

  /** Applies the form's filter: reads its first page. */
  async apply(): Promise<void> {
    const parsed = requestOf(this.form);
    if ('problem' in parsed) {
      this.formProblem = parsed.problem;
      return;
    }
    this.formProblem = undefined;
    this.applied = parsed.request;
    await this.reload();
  }

  /** Clears the filter and reads every write again. */
  async reset(): Promise<void> {
    this.form = { ...EMPTY_FORM, results: [] };
    await this.apply();
  }

  /** Reads the first page of the applied filter again (newest first). */
  async reload(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const page = await api().invoke('log:query', { ...this.applied, offset: 0, limit: ACTION_PAGE_SIZE });
      if (seq !== this.#seq) return;
      this.records = page.records;
      this.total = page.total;
      this.at = page.at;
      this.error = undefined;
      if (this.selected && !page.records.some((r) => r.seq === this.selected?.seq)) this.selected = undefined;
    } catch (err) {
      if (seq === this.#seq) this.error = errorText(err);
    } finally {
      if (seq === this.#seq) {
        this.loading = false;
        this.loaded = true;
      }
    }
  }

  /** Reads the next page of the same filter and appends it. */
  async more(): Promise<void> {
    if (this.loading || this.records.length >= this.total) return;
    const seq = this.#seq;
    this.loading = true;
    try {
      const page = await api().invoke('log:query', { ...this.applied, offset: this.records.length, limit: ACTION_PAGE_SIZE });
      if (seq !== this.#seq) return;
      // Writes recorded since the first page push older ones down: skip any already listed.
      this.records = [...this.records, ...unlisted(this.records, page.records)];
      this.total = page.total;
      this.error = undefined;
    } catch (err) {
      if (seq === this.#seq) this.error = errorText(err);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** Walks the whole hash chain in main. */
  async verify(): Promise<void> {
    if (this.verifying) return;
    this.verifying = true;
    try {
      this.verification = await api().invoke('log:verify', {});
      this.verifiedAt = nowIso();
      this.verifyError = undefined;
    } catch (err) {
      this.verifyError = errorText(err);
    } finally {
      this.verifying = false;
    }
  }

  /** Exports every write of the applied filter: saved through main's dialog (Electron) or downloaded (browser shell). */
  async export(format: ActionExportFormat, download: typeof downloadText = downloadText): Promise<void> {
    if (this.exporting) return;
    this.exporting = format;
    this.exportNote = undefined;
    try {
      const out = await api().invoke('log:export', { ...this.applied, format });
      if (out.kind === 'download') {
        download(out);
        this.exportNote = `${plural(out.count, 'write')} exported to ${out.fileName}.`;
      } else if (out.kind === 'saved') {
        this.exportNote = `${plural(out.count, 'write')} saved to ${out.path}.`;
      } else {
        this.exportNote = 'Export cancelled.';
      }
      this.exportError = undefined;
    } catch (err) {
      this.exportError = errorText(err);
    } finally {
      this.exporting = undefined;
    }
  }
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}
