import { describe, expect, it } from 'vitest';
import { headerPaging, incompleteFrom } from '../../../../app/answers/incomplete.js';

describe('what a list answer says of its completeness', () => {
  it('reads totals, tokens and flags in any case and word separation', () => {
    expect(incompleteFrom({ total_count: 2500 }, 1000)).toEqual({ Read: 1000, Total: 2500 });
    expect(incompleteFrom({ has_more: true }, 3)).toEqual({ Read: 3 });
    expect(incompleteFrom({ 'next-page-token': 'abc' }, 3)).toEqual({ Read: 3 });
    expect(incompleteFrom({ has_more: false, total_count: 3 }, 3)).toBeUndefined();
  });

  it('reads a paging object beside the items: a total, a next link, or pages left', () => {
    expect(incompleteFrom({ Paging: { TotalCount: 9, PageSize: 3 } }, 3)).toEqual({ Read: 3, Total: 9 });
    expect(incompleteFrom({ _links: { next: { href: '/hosts?page=2' } } }, 3)).toEqual({ Read: 3 });
    expect(incompleteFrom({ meta: { page: 1, total_pages: 3 } }, 3)).toEqual({ Read: 3 });
    expect(incompleteFrom({ Pagination: { PageNumber: 3, TotalPages: 3 } }, 3)).toBeUndefined();
    expect(incompleteFrom({ links: { next: null, self: '/hosts' } }, 3)).toBeUndefined();
  });

  it('reads the Link and X-Total-Count headers', () => {
    expect(headerPaging('</hosts?page=2>; rel="next", </hosts?page=4>; rel="last"', '12')).toEqual({ more: true, total: 12 });
    expect(headerPaging('</hosts?page=1>; rel="prev"', undefined)).toBeUndefined();
    expect(headerPaging(undefined, undefined)).toBeUndefined();
  });
});
