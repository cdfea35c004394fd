/**
 * A list answer that says it holds only part of the list. The document's lists are whole; real
 * services page theirs and say so beside the items: a total larger than the items (`TotalCount`,
 * `Total`, `Count`, OData's `@odata.count`…), a next-page token or link (`NextPageToken`,
 * `ContinuationToken`, `@odata.nextLink`, `next`…), a `HasMore` flag, or HTTP 206 with a
 * `Content-Range` (`items 0-499/2500`). The normaliser marks such an answer with
 * {@link INCOMPLETE_FIELD}, so the cache, views, reports and the CLI all see it, and every count
 * made of it is "at least", never a total.
 */
export interface IncompleteList {
  /** Items the answer holds. */
  readonly Read: number;
  /** Items the list has, when the answer says; absent when it only says there are more. */
  readonly Total?: number;
}

/** The field of a normalised list answer that marks it incomplete. */
export const INCOMPLETE_FIELD = 'Incomplete';

const TOTAL_KEYS: ReadonlySet<string> = new Set(['totalcount', 'total', 'count', 'totalitems', 'totalrecords', 'totalresults', 'totalsize', 'recordstotal', '@odata.count', 'odata.count']);
const NEXT_KEYS: ReadonlySet<string> = new Set(['nextpagetoken', 'nexttoken', 'continuationtoken', 'nextlink', '@odata.nextlink', 'odata.nextlink', 'next', 'nextpage', 'nextcursor', 'nextpageurl']);
const MORE_KEYS: ReadonlySet<string> = new Set(['hasmore', 'hasnextpage', 'moreitems', 'more']);
/** Objects beside the items that hold what is said of paging (`"Paging": {"TotalCount": …}`, HAL's `_links.next`, JSON:API's `links`/`meta`). */
const PAGING_OBJECTS: ReadonlySet<string> = new Set(['paging', 'pagination', 'pageinfo', 'page', 'meta', 'metadata', 'links', 'pager']);
const TOTAL_PAGES_KEYS: ReadonlySet<string> = new Set(['totalpages', 'pagecount', 'pages']);
const PAGE_NUMBER_KEYS: ReadonlySet<string> = new Set(['pagenumber', 'page', 'currentpage', 'pageindex']);

/**
 * What the siblings of a list's items say of its completeness; `partial`: the answer came as a 206
 * (whose `Content-Range` total, if any, is `rangeTotal`). Undefined when nothing says there is more.
 */
export function incompleteFrom(siblings: Readonly<Record<string, unknown>>, read: number, partial = false, rangeTotal?: number): IncompleteList | undefined {
  const said = { total: rangeTotal, more: partial || (rangeTotal !== undefined && rangeTotal > read) };
  scanSiblings(siblings, read, said, true);
  if (!said.more) return undefined;
  const total = said.total;
  return total !== undefined && total > read ? { Read: read, Total: total } : { Read: read };
}

function scanSiblings(siblings: Readonly<Record<string, unknown>>, read: number, said: { total: number | undefined; more: boolean }, outer: boolean): void {
  let pages: number | undefined;
  let page: number | undefined;
  for (const k in siblings) {
    // Any case, any word separation (`TotalCount`, `total_count`, `has-more`).
    const lower = k.toLowerCase().replace(/[_-]/g, '');
    const v = siblings[k];
    if (TOTAL_KEYS.has(lower)) {
      const n = countOf(v);
      if (n !== undefined && n > read) {
        said.total = Math.max(said.total ?? 0, n);
        said.more = true;
      }
    } else if (NEXT_KEYS.has(lower)) {
      if ((typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && v > 0) || (typeof v === 'object' && v !== null)) said.more = true;
    } else if (MORE_KEYS.has(lower)) {
      if (v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true')) said.more = true;
    } else if (!outer && TOTAL_PAGES_KEYS.has(lower)) {
      pages = countOf(v);
    } else if (!outer && PAGE_NUMBER_KEYS.has(lower)) {
      page = countOf(v);
    } else if (outer && PAGING_OBJECTS.has(lower) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      scanSiblings(v as Record<string, unknown>, read, said, false);
    }
  }
  // "Page 1 of 3" (pages counted from 1; a page index of 0 is the first too).
  if (pages !== undefined && pages > Math.max(1, page ?? 1)) said.more = true;
}

function countOf(v: unknown): number | undefined {
  return typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
}

/**
 * What an answer's headers say of a list's completeness: a `Link` header with `rel="next"` (RFC
 * 8288, as GitHub-style APIs page) means more items, and `X-Total-Count` (or `X-Total`) gives the
 * list's length. Undefined when neither is there.
 */
export function headerPaging(link: string | undefined, totalCount: string | undefined): { more: boolean; total: number | undefined } | undefined {
  const more = link !== undefined && /<[^>]*>\s*;[^,]*\brel\s*=\s*"?[^",]*\bnext\b/i.test(link);
  const total = totalCount === undefined ? undefined : countOf(totalCount.trim());
  return more || total !== undefined ? { more, total } : undefined;
}

/** The total of a `Content-Range` header (`items 0-499/2500`, `0-499/2500`); undefined when unknown (`*`) or absent. */
export function contentRangeTotal(header: string | undefined): number | undefined {
  const m = header ? /\/\s*(\d+)\s*$/.exec(header) : null;
  return m ? Number(m[1]) : undefined;
}

/** The mark of a normalised list answer, if it is incomplete. */
export function incompleteOf(answer: unknown): IncompleteList | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const v = (answer as Record<string, unknown>)[INCOMPLETE_FIELD];
  if (typeof v !== 'object' || v === null) return undefined;
  const read = (v as { Read?: unknown }).Read;
  const total = (v as { Total?: unknown }).Total;
  if (typeof read !== 'number') return undefined;
  return typeof total === 'number' ? { Read: read, Total: total } : { Read: read };
}

/** How it is said everywhere: `incomplete: 1000 of 2500`, or `incomplete: 1000 of more`. */
export function describeIncomplete(i: IncompleteList): string {
  return `incomplete: ${i.Read} of ${i.Total ?? 'more'}`;
}
