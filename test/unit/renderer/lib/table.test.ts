import { describe, expect, it } from 'vitest';
import { rankItems, type PaletteItem } from '../../../../renderer/lib/palette.js';
import { rangeQuery } from '../../../../renderer/lib/range.js';
import { sortRows, visibleWindow, type Column } from '../../../../renderer/lib/table.js';

describe('sortRows', () => {
  const cols: Column<{ n?: number; s?: string }>[] = [
    { id: 'n', title: 'N', value: (r) => r.n },
    { id: 's', title: 'S', value: (r) => r.s },
  ];
  const rows = [{ n: 10, s: 'drive-10' }, { s: 'drive-2' }, { n: 2, s: 'drive-1' }];

  it('sorts numbers numerically and text naturally, missing values last either way', () => {
    expect(sortRows(rows, cols, { column: 'n', dir: 'asc' }).map((r) => r.n)).toEqual([2, 10, undefined]);
    expect(sortRows(rows, cols, { column: 'n', dir: 'desc' }).map((r) => r.n)).toEqual([10, 2, undefined]);
    expect(sortRows(rows, cols, { column: 's', dir: 'asc' }).map((r) => r.s)).toEqual(['drive-1', 'drive-2', 'drive-10']);
    expect(sortRows(rows, cols, undefined)).toBe(rows);
  });
});

describe('visibleWindow', () => {
  it('covers the viewport plus overscan, clamped to the rows', () => {
    expect(visibleWindow(10_000, 30, 0, 300, 5)).toEqual({ first: 0, last: 15 });
    expect(visibleWindow(10_000, 30, 3000, 300, 5)).toEqual({ first: 95, last: 115 });
    expect(visibleWindow(0, 30, 0, 300, 5)).toEqual({ first: 0, last: 0 });
  });

  it('shows the end of a list that shrank under a deep scroll position', () => {
    expect(visibleWindow(10, 30, 3000, 300, 5)).toEqual({ first: 0, last: 10 });
    expect(visibleWindow(100, 30, 30_000, 300, 5)).toEqual({ first: 85, last: 100 });
  });
});

describe('rankItems', () => {
  const item = (label: string, hint = ''): PaletteItem => ({ id: label, group: 'View', label, hint, run: () => {} });
  it('puts prefix matches first and needs every word', () => {
    const items = [item('Refresh prod-a'), item('prod-a', 'Site one'), item('Hardware — prod-a')];
    expect(rankItems(items, 'prod').map((i) => i.label)).toEqual(['prod-a', 'Refresh prod-a', 'Hardware — prod-a']);
    expect(rankItems(items, 'prod site').map((i) => i.label)).toEqual(['prod-a']);
  });
});

describe('rangeQuery', () => {
  it('ends at now with the interval of the range', () => {
    const now = Date.UTC(2025, 5, 1, 12, 0, 0);
    expect(rangeQuery('24h', now)).toEqual({ fromDate: '2025-05-31T12:00:00', toDate: '2025-06-01T12:00:00', interval: 15 });
    expect(rangeQuery('30d', now).interval).toBe(360);
  });
});
