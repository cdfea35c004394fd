import type { ActionEntry, ActionResult } from '../../app/domain/action.js';
import type { Request } from '../../app/ipc/contract.js';

/** The filter as the view's form holds it: text fields ('' for any), outcomes ticked, local times. */
export interface ActionLogForm {
  site: string;
  system: string;
  operation: string;
  results: ActionResult[];
  /** `YYYY-MM-DDTHH:MM` in local time, as a datetime-local input gives it ('' for open). */
  since: string;
  until: string;
}

export type ActionLogRequest = Omit<Request<'log:query'>, 'offset' | 'limit'>;

/** Writes read per page: the table scrolls through what is read, "Show more" reads the next page. */
export const ACTION_PAGE_SIZE = 200;

export const EMPTY_FORM: ActionLogForm = { site: '', system: '', operation: '', results: [], since: '', until: '' };

/**
 * The request a form stands for: empty fields left out, local times as ISO. Undefined with the
 * reason when a time cannot be read, so nothing is asked of main with half a filter.
 */
export function requestOf(form: ActionLogForm): { request: ActionLogRequest } | { problem: string } {
  const time = (text: string, label: string): string | { problem: string } | undefined => {
    if (!text.trim()) return undefined;
    const t = new Date(text);
    return Number.isNaN(t.getTime()) ? { problem: `${label}: “${text}” is not a date and time.` } : t.toISOString();
  };
  const since = time(form.since, 'From');
  const until = time(form.until, 'Until');
  for (const t of [since, until]) if (typeof t === 'object') return t;
  if (typeof since === 'string' && typeof until === 'string' && since >= until) return { problem: 'Until must be later than From.' };
  const operation = form.operation.trim();
  return {
    request: {
      ...(form.site ? { site: form.site } : {}),
      ...(form.system ? { system: form.system } : {}),
      ...(operation ? { operation } : {}),
      ...(form.results.length ? { results: [...form.results] } : {}),
      ...(typeof since === 'string' ? { since } : {}),
      ...(typeof until === 'string' ? { until } : {}),
    },
  };
}

/** The writes of a next page not listed yet: writes recorded since the first page push older ones down a page. */
export function unlisted(listed: readonly ActionEntry[], next: readonly ActionEntry[]): ActionEntry[] {
  const seen = new Set(listed.map((r) => r.seq));
  return next.filter((r) => !seen.has(r.seq));
}
