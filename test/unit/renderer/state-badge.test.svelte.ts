import { describe, expect, it } from 'vitest';
import LevelPill from '../../../renderer/components/LevelPill.svelte';
import StateBadge from '../../../renderer/components/StateBadge.svelte';
import { STATE_LOOK } from '../../../renderer/lib/states.js';
import Look from '../../../renderer/components/Look.svelte';
import type { CellLook } from '../../../renderer/lib/table.js';
import { renderComponent } from './support/render.js';

describe('StateBadge', () => {
  it('draws a distinct icon shape beside the word for every state, so colour is never the only sign', () => {
    const shapes: string[] = [];
    for (const [state, look] of Object.entries(STATE_LOOK)) {
      const el = renderComponent(StateBadge, { state }).target;
      const badge = el.querySelector<HTMLElement>('.state-badge')!;
      expect(badge.dataset.state).toBe(state);
      expect(badge.textContent?.trim()).toBe(look.label);
      const svg = badge.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.dataset.icon).toBe(look.icon);
      const drawn = [...svg.querySelectorAll('path')].map((p) => p.getAttribute('d') ?? '').filter(Boolean);
      expect(drawn.length).toBeGreaterThan(0);
      shapes.push(drawn.join('|'));
    }
    const icons = Object.values(STATE_LOOK).map((l) => l.icon);
    const distinct = (list: readonly string[]) => list.filter((x, i) => list.indexOf(x) === i).length;
    expect(distinct(shapes)).toBe(distinct(icons));
  });

  it('gives a state it does not know its own text and a neutral look', () => {
    const el = renderComponent(StateBadge, { state: 'mystery' }).target;
    expect(el.querySelector('.state-badge')?.textContent?.trim()).toBe('mystery');
    expect(el.querySelector('.state-badge')?.classList.contains('tone-muted')).toBe(true);
    expect(el.querySelector('svg')?.dataset.icon).toBe('clock');
  });

});

describe('Look (the cells of tables and the parts of tree rows)', () => {
  const first = (look: CellLook): HTMLElement => renderComponent(Look, { look }).target.firstElementChild as HTMLElement;

  it('renders a state as StateBadge does, full or compact, the look\'s title as the badge\'s detail', () => {
    for (const state of [...Object.keys(STATE_LOOK), 'mystery']) {
      for (const props of [{}, { compact: true }, { detail: 'connect ECONNREFUSED' }, { compact: true, detail: 'connect ECONNREFUSED' }]) {
        const badge = renderComponent(StateBadge, { state, ...props }).target.firstElementChild as Element;
        expect(shape(first({ text: state, state, compact: props.compact, title: props.detail })), `${state} ${JSON.stringify(props)}`).toEqual(shape(badge));
      }
    }
  });

  it('renders a level as LevelPill does, with its tooltip, and the compact pill of the tree with its test id', () => {
    const pill = first({ text: 'nearly full', tone: 'warning', level: 'warning', title: 'p1 at 91%; p2 at 95%' });
    expect(shape(pill)).toEqual(shape(renderComponent(LevelPill, { level: 'warning', text: 'nearly full', reasons: ['p1 at 91%', 'p2 at 95%'] }).target.firstElementChild as Element));
    expect([pill.className.split(' ').filter((c) => !c.startsWith('svelte-')).join(' '), pill.title, pill.dataset.level, pill.textContent]).toEqual(['pill tone-warning', 'p1 at 91%; p2 at 95%', 'warning', 'nearly full']);
    const mini = first({ text: 'warning', tone: 'warning', level: 'warning', compact: true, title: 'hardware: 99 % healthy', testid: 'tree-health' });
    expect([mini.classList.contains('compact'), mini.title, mini.dataset.level, mini.dataset.testid, mini.textContent]).toEqual([true, 'hardware: 99 % healthy', 'warning', 'tree-health', 'warning']);
    // A pill of a tone only (not a level): no data-level.
    expect(first({ text: '3 new', tone: 'info' }).hasAttribute('data-level')).toBe(false);
  });

  it('renders muted text, a count and plain text', () => {
    const muted = first({ text: '3/25', muted: true, title: 'refreshing' });
    expect([muted.tagName, muted.classList.contains('muted'), muted.title, muted.textContent]).toEqual(['SPAN', true, 'refreshing', '3/25']);
    const count = first({ text: '10', count: true });
    expect([count.tagName, count.classList.contains('count'), count.classList.contains('muted'), count.hasAttribute('title'), count.textContent]).toEqual(['SPAN', true, true, false, '10']);
    const text = renderComponent(Look, { look: { text: 'dc-seattle-3' } }).target;
    expect([text.children.length, text.textContent]).toEqual([0, 'dc-seattle-3']);
  });
});

/** An element's tag, attributes (without Svelte's scoping classes) and children, whitespace between elements left out. */
function shape(el: Element): unknown {
  const attrs = Object.fromEntries(
    [...el.attributes].map((a) => [a.name, a.name === 'class' ? a.value.split(/\s+/).filter((c) => c && !c.startsWith('svelte-')).sort().join(' ') : a.value]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  const children = [...el.childNodes].filter((n) => n.nodeType === 1 || n.textContent?.trim()).map((n) => (n.nodeType === 1 ? shape(n as Element) : n.textContent));
  return { tag: el.tagName.toLowerCase(), attrs, children };
}
