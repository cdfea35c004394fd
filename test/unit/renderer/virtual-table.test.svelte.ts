import { createRawSnippet, flushSync, type Component } from 'svelte';
import { describe, expect, it } from 'vitest';
import VirtualTable from '../../../renderer/components/VirtualTable.svelte';
import { firstFrame } from '../../../renderer/lib/first-frame.svelte.js';
import { levelLook, type CellLook, type Column } from '../../../renderer/lib/table.js';
import { fakeElementSize, fakeResizeObserver } from './support/fake-layout.js';
import { renderComponent } from './support/render.js';

interface Drive {
  id: number;
  serial: string;
  size: number;
}

const columns: Column<Drive>[] = [
  { id: 'id', title: 'Id', value: (d) => d.id },
  { id: 'serial', title: 'Serial', value: (d) => d.serial },
  { id: 'size', title: 'Size', value: (d) => d.size },
];

const drives: Drive[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i, serial: `SN${String(i).padStart(5, '0')}`, size: (i * 7919) % 10_000 }));


interface Props {
  rows: readonly Drive[];
  columns: readonly Column<Drive>[];
  onactivate: (d: Drive) => void;
  expectedWidth: string;
  fill: boolean;
}

function renderTable(props: Partial<Props> = {}): HTMLElement {
  // A generic component cannot be instantiated with a type argument in mount(): erase it here.
  return renderComponent(VirtualTable as unknown as Component<Record<string, unknown>>, { rows: drives, columns, rowKey: (d: Drive) => d.id, label: 'Drives', rowHeight: 30, maxHeight: 600, ...props }).target;
}

const bodyRows = (el: HTMLElement): HTMLElement[] => [...el.querySelectorAll<HTMLElement>('[role="rowgroup"] [role="row"]')];
const firstCells = (el: HTMLElement): string[] => bodyRows(el).map((r) => r.querySelector('[role="gridcell"]')?.textContent?.trim() ?? '');


describe('VirtualTable', () => {
  it('renders only a window of 10,000 rows but announces them all', () => {
    const el = renderTable();
    const rendered = bodyRows(el);
    // 600 px minus a 30 px header is 19 rows in view, plus 8 overscan below.
    expect(rendered.length).toBeGreaterThan(15);
    expect(rendered.length).toBeLessThan(40);
    expect(el.querySelector('[role="grid"]')?.getAttribute('aria-rowcount')).toBe('10001');
    // The body is as tall as all rows, so the scrollbar is true to the data.
    expect((el.querySelector('[role="rowgroup"]') as HTMLElement).style.height).toBe('300000px');
  });

  it('renders the rows in view only until the window\'s first frame is painted, then its overscan', () => {
    firstFrame.pending = true;
    try {
      const el = renderTable();
      // 600 px minus a 30 px header: 19 rows in view, none below.
      expect(firstCells(el).map(Number)).toEqual(Array.from({ length: 19 }, (_, i) => i));
      firstFrame.pending = false;
      flushSync();
      expect(bodyRows(el)).toHaveLength(19 + 8);
    } finally {
      firstFrame.pending = false;
    }
  });

  it('renders the rows its height cap shows, not those of the height it measures while it holds few rows', async () => {
    // A capped table is as tall as its rows: measured before its rows are in, it is a header tall.
    const size = fakeElementSize('clientHeight', () => 30);
    const observed: Element[] = [];
    // A browser's observer: it calls back once the observed element is laid out (after the mount).
    const layout = fakeResizeObserver('microtask', observed);
    firstFrame.pending = true;
    try {
      const el = renderTable();
      await Promise.resolve();
      flushSync();
      expect(observed).toHaveLength(2);
      expect(bodyRows(el)).toHaveLength(19);
    } finally {
      firstFrame.pending = false;
      layout.restore();
      size();
    }
  });

  it('drops the columns a measured width cannot hold, the droppable ones first', async () => {
    // 16 rem at the 16 px root size (jsdom's computed font size).
    const size = fakeElementSize('clientWidth', () => 16 * 16);
    const layout = fakeResizeObserver('microtask');
    try {
      const cols: Column<Drive>[] = [
        { id: 'id', title: 'Id', value: (d) => d.id, width: '6rem' },
        { id: 'serial', title: 'Serial', value: (d) => d.serial, width: '8rem', drop: 1 },
        { id: 'size', title: 'Size', value: (d) => d.size, width: '8rem' },
      ];
      const el = renderTable({ columns: cols } as Partial<Props>);
      const heads = (): string[] => [...el.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim() ?? '');
      // Before any layout every column shows.
      expect(heads()).toEqual(['Id', 'Serial', 'Size']);
      await Promise.resolve();
      flushSync();
      expect(heads()).toEqual(['Id', 'Size']);
    } finally {
      layout.restore();
      size();
    }
  });

  it('fits its columns to the width expected before it is laid out, and a measured width keeping them renders nothing again', async () => {
    // The overview's table, mounted hidden, rendered all its columns, then its rows again
    // with the columns its measured width kept.
    // 17 rem at the 16 px root size (jsdom's computed font size).
    const size = fakeElementSize('clientWidth', () => 17 * 16);
    const layout = fakeResizeObserver('microtask');
    try {
      let texts = 0;
      const cols: Column<Drive>[] = [
        { id: 'id', title: 'Id', value: (d) => d.id, text: (d) => (texts++, String(d.id)), width: '6rem' },
        { id: 'serial', title: 'Serial', value: (d) => d.serial, width: '8rem', drop: 1 },
        { id: 'size', title: 'Size', value: (d) => d.size, width: '8rem' },
      ];
      // jsdom lays nothing out: the probe of the expected length is as wide as its rem say.
      const box = HTMLElement.prototype.getBoundingClientRect;
      HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
        const rem = /^(\d+)rem$/.exec(this.style.width);
        return rem ? new DOMRect(0, 0, Number(rem[1]) * 16, 0) : box.call(this);
      };
      let el: HTMLElement;
      try {
        el = renderTable({ columns: cols, expectedWidth: '16rem' });
      } finally {
        HTMLElement.prototype.getBoundingClientRect = box;
      }
      const heads = (): string[] => [...el.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim() ?? '');
      expect(heads()).toEqual(['Id', 'Size']);
      const rendered = texts;
      const header = el.querySelector('[role="columnheader"]');
      expect(rendered).toBeGreaterThan(0);
      await Promise.resolve();
      flushSync();
      expect(heads()).toEqual(['Id', 'Size']);
      expect(texts).toBe(rendered);
      expect(el.querySelector('[role="columnheader"]')).toBe(header);
    } finally {
      layout.restore();
      size();
    }
  });

  it("renders a filling table's rows for the window's height until laid out, and again only for a height needing more", () => {
    let height = 0;
    const size = fakeElementSize('clientHeight', () => height);
    const layout = fakeResizeObserver('manual');
    firstFrame.pending = true;
    try {
      let texts = 0;
      const cols: Column<Drive>[] = [{ id: 'id', title: 'Id', value: (d) => d.id, text: (d) => (texts++, String(d.id)) }];
      const el = renderTable({ columns: cols, fill: true });
      // jsdom's window is 768 px: 30 px rows under a 30 px header.
      expect(bodyRows(el)).toHaveLength(Math.ceil((window.innerHeight - 30) / 30));
      const rendered = texts;
      height = 500;
      layout.deliver();
      flushSync();
      expect(bodyRows(el)).toHaveLength(Math.ceil((window.innerHeight - 30) / 30));
      expect(texts).toBe(rendered);
      height = window.innerHeight + 300;
      layout.deliver();
      flushSync();
      expect(bodyRows(el)).toHaveLength(Math.ceil((height - 30) / 30));
    } finally {
      firstFrame.pending = false;
      layout.restore();
      size();
    }
  });

  it('renders the rows at the scroll position', () => {
    const el = renderTable();
    const scroller = el.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 5000 * 30;
    scroller.dispatchEvent(new Event('scroll'));
    flushSync();
    const ids = firstCells(el).map(Number);
    expect(ids).toContain(5000);
    expect(ids).not.toContain(0);
    expect(Math.max(...ids) - Math.min(...ids)).toBeLessThan(40);
    const row5000 = bodyRows(el).find((r) => r.getAttribute('aria-rowindex') === '5002');
    expect(row5000?.style.transform).toBe('translateY(150000px)');
  });

  it('gives text cells their text as a tooltip (or the column\'s own), renders a column\'s own cells as they are, and follows the rows when scrolled', () => {
    const sizeCell = createRawSnippet((d: () => Drive) => ({ render: () => `<b class="size">${d().size} GB</b>` }));
    const el = renderTable({
      columns: [
        { id: 'id', title: 'Id', value: (d: Drive) => d.id, tip: (d: Drive) => `drive ${d.id}` },
        { id: 'serial', title: 'Serial', value: (d: Drive) => d.serial },
        { id: 'size', title: 'Size', value: (d: Drive) => d.size, cell: sizeCell },
      ],
    });
    const cellsOf = (i: number) => [...bodyRows(el).find((r) => r.getAttribute('aria-rowindex') === String(i + 2))!.querySelectorAll<HTMLElement>('[role="gridcell"]')];
    const check = (i: number) => {
      const [id, serial, size] = cellsOf(i);
      expect(id!.textContent).toBe(String(i));
      expect(id!.title).toBe(`drive ${i}`);
      expect(serial!.textContent).toBe(drives[i]!.serial);
      expect(serial!.title).toBe(drives[i]!.serial);
      expect(size!.hasAttribute('title')).toBe(false);
      expect(size!.textContent).toBe(`${drives[i]!.size} GB`);
      expect(size!.querySelectorAll('b.size')).toHaveLength(1);
    };
    check(3);
    const scroller = el.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 700 * 30;
    scroller.dispatchEvent(new Event('scroll'));
    flushSync();
    check(700);
  });

  it('sorts by a column header, ascending then descending', () => {
    const el = renderTable();
    const header = [...el.querySelectorAll<HTMLButtonElement>('[role="columnheader"] button')].find((b) => b.textContent?.startsWith('Serial')) as HTMLButtonElement;
    header.click();
    flushSync();
    expect(header.closest('[role="columnheader"]')?.getAttribute('aria-sort')).toBe('ascending');
    expect(firstCells(el)[0]).toBe('0');
    header.click();
    flushSync();
    expect(header.closest('[role="columnheader"]')?.getAttribute('aria-sort')).toBe('descending');
    expect(firstCells(el)[0]).toBe('9999');
  });

  it('sorts numbers as numbers', () => {
    const el = renderTable({ rows: [{ id: 1, serial: 'a', size: 10 }, { id: 2, serial: 'b', size: 9 }, { id: 3, serial: 'c', size: 100 }] });
    const size = [...el.querySelectorAll<HTMLButtonElement>('[role="columnheader"] button')].find((b) => b.textContent?.startsWith('Size')) as HTMLButtonElement;
    size.click();
    flushSync();
    expect(firstCells(el)).toEqual(['2', '1', '3']);
  });

  it('moves the active row with the keyboard, scrolling it into view, and activates it with Enter', () => {
    const activated: Drive[] = [];
    const el = renderTable({ onactivate: (d: Drive) => void activated.push(d) });
    const grid = el.querySelector('[role="grid"]') as HTMLElement;
    const key = (k: string): void => {
      grid.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
      flushSync();
    };
    key('ArrowDown');
    key('ArrowDown');
    key('Enter');
    expect(activated.map((d) => d.id)).toEqual([1]);
    key('End');
    const activeId = grid.getAttribute('aria-activedescendant');
    expect(activeId).toBeTruthy();
    expect(document.getElementById(activeId as string)?.getAttribute('aria-rowindex')).toBe('10001');
    expect(firstCells(el).map(Number)).toContain(9999);
    key('Enter');
    expect(activated.map((d) => d.id)).toEqual([1, 9999]);
  });

  it('shows the empty text when there are no rows', () => {
    const el = renderTable({ rows: [] });
    expect(el.textContent).toContain('Nothing to show.');
  });
});

describe('VirtualTable drawing its own cells', () => {
  interface Sys {
    name: string;
    level: 'ok' | 'warning' | 'critical';
    state: string;
  }
  const sysColumns: Column<Sys>[] = [
    { id: 'name', title: 'Name', value: (r) => r.name, width: '8rem' },
    { id: 'level', title: 'Health', value: (r) => r.level, look: (r) => levelLook(r.level, undefined, r.level === 'ok' ? undefined : `${r.name} needs a look`), width: '8rem', align: 'end' },
    { id: 'state', title: 'Connection', value: (r) => r.state, look: (r): CellLook => ({ text: r.state, state: r.state }), width: '8rem' },
    { id: 'ha', title: 'HA', value: () => undefined, look: (): CellLook => ({ text: '—', muted: true }), width: '8rem' },
  ];
  const systems = (): Sys[] => Array.from({ length: 50 }, (_, i) => ({ name: `sys-${i}`, level: 'ok', state: 'ok' }));
  const renderSystems = (props: Record<string, unknown>): HTMLElement =>
    renderComponent(VirtualTable as unknown as Component<Record<string, unknown>>, props).target;
  const rowOf = (el: HTMLElement, name: string): HTMLElement => bodyRows(el).find((r) => r.dataset.key === name) as HTMLElement;
  const cellsOf = (row: HTMLElement): HTMLElement[] => [...row.querySelectorAll<HTMLElement>(':scope > [role="gridcell"]')];

  it("draws text, pills, badges and muted text as the snippets drew them, and follows a row's data in place", () => {
    const props = $state({ rows: systems(), columns: sysColumns, rowKey: (r: Sys) => r.name, label: 'Systems', maxHeight: 300 });
    const el = renderSystems(props);
    const row = rowOf(el, 'sys-3');
    const [name, level, state, ha] = cellsOf(row);
    expect(cellsOf(row)).toHaveLength(4);
    expect(name!.textContent).toBe('sys-3');
    expect(name!.title).toBe('sys-3');
    expect(name!.classList.contains('cell')).toBe(true);
    expect(level!.classList.contains('end')).toBe(true);
    const pill = level!.querySelector<HTMLElement>('.pill')!;
    expect([pill.textContent, pill.dataset.level, pill.classList.contains('tone-ok')]).toEqual(['ok', 'ok', true]);
    expect(level!.hasAttribute('title')).toBe(false);
    const badge = state!.querySelector<HTMLElement>('.state-badge')!;
    expect([badge.dataset.state, badge.textContent?.trim(), badge.querySelector('svg')?.dataset.icon]).toEqual(['ok', 'ok', 'check']);
    expect(ha!.querySelector('.muted')?.textContent).toBe('—');

    // The system's health and connection change: its row shows it, in the same elements.
    props.rows = props.rows.map((r) => (r.name === 'sys-3' ? { ...r, level: 'critical', state: 'unreachable' } : r));
    flushSync();
    expect(rowOf(el, 'sys-3')).toBe(row);
    const [name2, level2, state2] = cellsOf(row);
    expect(name2).toBe(name);
    expect(level2).toBe(level);
    expect(level2!.title).toBe('sys-3 needs a look');
    expect(level2!.querySelector<HTMLElement>('.pill')?.dataset.level).toBe('critical');
    expect(level2!.querySelector<HTMLElement>('.pill')?.classList.contains('tone-critical')).toBe(true);
    expect(state2!.querySelector<HTMLElement>('.state-badge')?.dataset.state).toBe('unreachable');
    expect(state2!.textContent?.trim()).toBe('unreachable');
    expect(cellsOf(row)).toHaveLength(4);
  });

  it('draws its cells when a narrow width drops its only snippet column, and renders the snippets again when wide', async () => {
    let width = 40 * 16;
    const size = fakeElementSize('clientWidth', () => width);
    const layout = fakeResizeObserver('manual');
    try {
      const noteCell = createRawSnippet((r: () => Sys) => ({ render: () => `<i class="note">${r().name} note</i>` }));
      const columns = [...sysColumns, { id: 'note', title: 'Note', value: (r: Sys) => r.name, cell: noteCell, width: '8rem', drop: 1 }];
      const el = renderSystems({ rows: systems(), columns, rowKey: (r: Sys) => r.name, label: 'Systems', maxHeight: 300 });
      const texts = (name: string) => cellsOf(rowOf(el, name)).map((c) => c.textContent?.trim());
      expect(texts('sys-1')).toEqual(['sys-1', 'ok', 'ok', '—', 'sys-1 note']);
      // A look among snippets: the same markup as drawn.
      expect(cellsOf(rowOf(el, 'sys-1'))[1]?.querySelector('.pill.tone-ok')?.getAttribute('data-level')).toBe('ok');
      expect(cellsOf(rowOf(el, 'sys-1'))[2]?.querySelector('.state-badge svg')).not.toBeNull();
      width = 33 * 16;
      layout.deliver();
      flushSync();
      expect(texts('sys-1')).toEqual(['sys-1', 'ok', 'ok', '—']);
      expect(el.querySelector('.note')).toBeNull();
      width = 40 * 16;
      layout.deliver();
      flushSync();
      expect(texts('sys-1')).toEqual(['sys-1', 'ok', 'ok', '—', 'sys-1 note']);
    } finally {
      layout.restore();
      size();
    }
  });

  // A plain table's rows are drawn without an each block; a click does what it did there.
  it('activates a drawn row with a click, marking it active and selected', () => {
    const activated: string[] = [];
    const el = renderSystems({ rows: systems(), columns: sysColumns, rowKey: (r: Sys) => r.name, label: 'Systems', maxHeight: 300, onactivate: (r: Sys) => void activated.push(r.name) });
    const row = rowOf(el, 'sys-4');
    expect([row.getAttribute('role'), row.getAttribute('aria-rowindex'), row.getAttribute('aria-selected'), row.tabIndex]).toEqual(['row', '6', 'false', -1]);
    (cellsOf(row)[0] as HTMLElement).click();
    flushSync();
    expect(activated).toEqual(['sys-4']);
    expect(row.classList.contains('active')).toBe(true);
    expect(row.getAttribute('aria-selected')).toBe('true');
    expect(el.querySelector('[role="grid"]')?.getAttribute('aria-activedescendant')).toBe(row.id);
    expect(bodyRows(el).filter((r) => r.classList.contains('active'))).toEqual([row]);
  });

  it("draws a scrolled-in row's cells in the slot of the row scrolled out", () => {
    const el = renderSystems({ rows: systems(), columns: sysColumns, rowKey: (r: Sys) => r.name, label: 'Systems', maxHeight: 300, overscan: 0 });
    const scroller = el.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 30 * 30;
    scroller.dispatchEvent(new Event('scroll'));
    flushSync();
    const names = bodyRows(el).map((r) => cellsOf(r)[0]?.textContent);
    expect(names).toContain('sys-30');
    expect(names).not.toContain('sys-0');
    for (const r of bodyRows(el)) expect(cellsOf(r)).toHaveLength(4);
  });

  it("mounts a column's snippet in the cell, keeps it for the next row scrolled into the slot, and releases it when the table goes", () => {
    let live = 0;
    const clicked: string[] = [];
    const activated: string[] = [];
    const action = createRawSnippet((r: () => Sys) => ({
      render: () => '<button type="button">Act</button>',
      setup: (button) => {
        const name = (): string => r().name;
        const onclick = (): void => void clicked.push(name());
        button.addEventListener('click', onclick);
        live++;
        return () => {
          button.removeEventListener('click', onclick);
          live--;
        };
      },
    }));
    const columns = [...sysColumns, { id: 'act', title: 'Act', value: () => undefined, cell: action, width: '8rem', sortable: false }];
    const rendered = renderComponent(VirtualTable as unknown as Component<Record<string, unknown>>, { rows: systems(), columns, rowKey: (r: Sys) => r.name, label: 'Systems', maxHeight: 300, overscan: 0, onactivate: (r: Sys) => void activated.push(r.name) });
    const el = rendered.target;
    const mounted = live;
    expect(mounted).toBe(bodyRows(el).length);
    // A click on the control acts on its row, and does not activate the row.
    const button = cellsOf(rowOf(el, 'sys-2'))[4]!.querySelector('button')!;
    button.click();
    flushSync();
    expect([clicked, activated]).toEqual([['sys-2'], []]);
    // Scrolled: the slot's element and its mounted control now show the row scrolled in.
    const scroller = el.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 30 * 30;
    scroller.dispatchEvent(new Event('scroll'));
    flushSync();
    expect(rowOf(el, 'sys-2')).toBeUndefined();
    expect(live).toBe(mounted);
    const moved = bodyRows(el).find((r) => cellsOf(r)[4]?.querySelector('button') === button);
    expect(moved?.dataset.key).toMatch(/^sys-/);
    button.click();
    expect(clicked).toEqual(['sys-2', moved!.dataset.key]);
    rendered.unmount();
    expect(live).toBe(0);
  });
});
