import { describe, expect, it } from 'vitest';
import { clearRows, drawRows, type RowRenderer } from '../../../renderer/lib/rows.js';

describe('drawRows', () => {
  const renderer = (made: string[], released: string[]): RowRenderer<string> => ({
    keyAttr: 'data-k',
    key: (k) => k,
    make: () => {
      made.push('new');
      return document.createElement('div');
    },
    draw: (el, k) => void (el.textContent = k),
    release: (el) => void released.push(el.getAttribute('data-k') ?? ''),
  });

  it('keeps the element of a row that stays, releases and removes the rows that left, makes the new ones, in the window order', () => {
    const list = document.createElement('div');
    const made: string[] = [];
    const released: string[] = [];
    const rows = renderer(made, released);
    drawRows(list, ['a', 'b', 'c'], rows);
    expect(made).toHaveLength(3);
    const [, b, c] = [...list.children];
    drawRows(list, ['b', 'c', 'd'], rows);
    expect(made).toHaveLength(4);
    expect(released).toEqual(['a']);
    expect([...list.children].map((e) => e.textContent)).toEqual(['b', 'c', 'd']);
    expect(list.children[0]).toBe(b);
    expect(list.children[1]).toBe(c);
    expect(list.children[2]?.getAttribute('data-k')).toBe('d');
    // Reordered: the same elements, moved.
    drawRows(list, ['d', 'b'], rows);
    expect(made).toHaveLength(4);
    expect(released).toEqual(['a', 'c']);
    expect([...list.children].map((e) => e.getAttribute('data-k'))).toEqual(['d', 'b']);
    expect(list.children[1]).toBe(b);
    clearRows(list, rows as RowRenderer<never>);
    expect(list.children).toHaveLength(0);
    expect(released).toEqual(['a', 'c', 'd', 'b']);
  });
});
