import { describe, expect, it } from 'vitest';
import { rankItems, type PaletteItem } from '../../../../renderer/lib/palette.js';
import { rangeQuery } from '../../../../renderer/lib/range.js';
import { columnTrack, fittingColumns, levelLook, sortRows, visibleWindow, type Column } from '../../../../renderer/lib/table.js';

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

  it('ranks a word that starts with the query above the query inside a word: "ping" finds the ping operation before "mappings"', () => {
    const items = [item('Hosts & mappings — prod-a'), { ...item('GET /resources/network/ping', 'Ping an address'), group: 'Operation' as const }];
    expect(rankItems(items, 'ping').map((i) => i.label)).toEqual(['GET /resources/network/ping', 'Hosts & mappings — prod-a']);
  });

  it('puts fleet objects found by the search right after labels that start with the query', () => {
    const found = [{ ...item('iqn.2025-01.com.example:esx01', 'IQN · host esx01'), group: 'Found' as const }];
    const items = [item('esx-view'), item('Refresh esx-view')];
    expect(rankItems(items, 'esx', 60, found).map((i) => i.label)).toEqual(['esx-view', 'iqn.2025-01.com.example:esx01', 'Refresh esx-view']);
  });
});

describe('fittingColumns', () => {
  const cols: Column<unknown>[] = [
    { id: 'name', title: 'Name', value: () => '', width: 'minmax(8rem, 1fr)' },
    { id: 'desc', title: 'Description', value: () => '', width: 'minmax(14rem, 3fr)', drop: 2 },
    { id: 'model', title: 'Model', value: () => '', width: '8rem', drop: 1 },
    { id: 'act', title: 'Actions', value: () => '', width: '9rem' },
  ];
  it('drops descriptive columns, highest first, until identifiers and actions fit', () => {
    expect(fittingColumns(cols, 40).map((c) => c.id)).toEqual(['name', 'desc', 'model', 'act']);
    expect(fittingColumns(cols, 31).map((c) => c.id)).toEqual(['name', 'model', 'act']);
    expect(fittingColumns(cols, 20).map((c) => c.id)).toEqual(['name', 'act']);
    expect(fittingColumns(cols, 10).map((c) => c.id)).toEqual(['name', 'act']);
    // Not measured (no layout): everything shows.
    expect(fittingColumns(cols, 0)).toBe(cols);
  });
});

describe('rangeQuery', () => {
  it('ends at now with the interval of the range', () => {
    const now = Date.UTC(2025, 5, 1, 12, 0, 0);
    expect(rangeQuery('24h', now)).toEqual({ fromDate: '2025-05-31T12:00:00', toDate: '2025-06-01T12:00:00', interval: 15 });
    expect(rangeQuery('30d', now).interval).toBe(360);
  });
});

describe('levelLook', () => {
  it("draws a health level on its colour (LevelPill's), the level as its text unless given, with its tooltip", () => {
    expect(levelLook('critical')).toEqual({ text: 'critical', title: undefined, tone: 'critical', level: 'critical' });
    expect(levelLook('unknown', 'not read')).toMatchObject({ text: 'not read', tone: 'muted', level: 'unknown' });
    expect(levelLook('warning', '85 % allocated', 'pool p1: 85 %')).toMatchObject({ tone: 'warning', title: 'pool p1: 85 %' });
  });
});

describe('columnTrack', () => {
  it('keeps a track wide enough for its title, so a column name is never cut', () => {
    expect(columnTrack({ title: 'Name', width: 'minmax(8rem, 1fr)' })).toBe('minmax(8rem, 1fr)');
    expect(columnTrack({ title: 'Drives not OK', width: '6.5rem' })).toBe('10rem');
    expect(columnTrack({ title: 'State (system)', width: 'minmax(7rem, 2fr)' })).toBe('minmax(10.5rem, 2fr)');
    expect(columnTrack({ title: 'Remote system' })).toBe('minmax(10rem, 1fr)');
    expect(columnTrack({ title: '', width: '3rem' })).toBe('3rem');
  });
});
