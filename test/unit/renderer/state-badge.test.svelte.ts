import { describe, expect, it } from 'vitest';
import LevelPill from '../../../renderer/components/LevelPill.svelte';
import StateBadge from '../../../renderer/components/StateBadge.svelte';
import { STATE_LOOK } from '../../../renderer/lib/states.js';
import { lookElement, pillElement, stateBadge } from '../../../renderer/lib/table.js';
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

  it('draws the same badge as an element (for rows drawn without components) as the component renders', () => {
    for (const state of [...Object.keys(STATE_LOOK), 'mystery']) {
      for (const props of [{}, { compact: true, detail: 'connect ECONNREFUSED' }]) {
        const rendered = renderComponent(StateBadge, { state, ...props }).target.firstElementChild as Element;
        expect(shape(stateBadge(state, props)), state).toEqual(shape(rendered));
      }
    }
  });
});

describe('LevelPill', () => {
  it('draws the same pill as an element as the component renders', () => {
    const rendered = renderComponent(LevelPill, { level: 'warning', text: 'nearly full', reasons: ['p1 at 91%', 'p2 at 95%'] }).target.firstElementChild as Element;
    expect(shape(pillElement('nearly full', 'warning', { level: 'warning', title: 'p1 at 91%; p2 at 95%' }))).toEqual(shape(rendered));
  });
});

describe('lookElement', () => {
  // VirtualTable's cells and FleetTree's row parts are drawn by one drawer, with the union
  // of what each drew: what the components render, in full or compact form, with or without a tooltip.
  it('draws a state as StateBadge renders it, full or compact, the look\'s title as the badge\'s detail', () => {
    for (const state of [...Object.keys(STATE_LOOK), 'mystery']) {
      for (const props of [{}, { compact: true }, { detail: 'connect ECONNREFUSED' }, { compact: true, detail: 'connect ECONNREFUSED' }]) {
        const rendered = renderComponent(StateBadge, { state, ...props }).target.firstElementChild as Element;
        const drawn = lookElement({ text: state, state, compact: props.compact, title: props.detail }) as Element;
        expect(shape(drawn), `${state} ${JSON.stringify(props)}`).toEqual(shape(rendered));
      }
    }
  });

  it('draws a level as LevelPill renders it, with or without its tooltip, and the compact pill of the tree with its test id', () => {
    const withReasons = renderComponent(LevelPill, { level: 'warning', text: 'nearly full', reasons: ['p1 at 91%', 'p2 at 95%'] }).target.firstElementChild as Element;
    expect(shape(lookElement({ text: 'nearly full', tone: 'warning', level: 'warning', title: 'p1 at 91%; p2 at 95%' }) as Element)).toEqual(shape(withReasons));
    const plain = renderComponent(LevelPill, { level: 'critical' }).target.firstElementChild as Element;
    expect(shape(lookElement({ text: 'critical', tone: 'critical', level: 'critical' }) as Element)).toEqual(shape(plain));
    const mini = lookElement({ text: 'warning', tone: 'warning', level: 'warning', compact: true, title: 'hardware: 99 % healthy', testid: 'tree-health' }) as HTMLElement;
    expect([mini.className, mini.title, mini.dataset.level, mini.dataset.testid, mini.textContent]).toEqual(['pill tone-warning mini', 'hardware: 99 % healthy', 'warning', 'tree-health', 'warning']);
    // A pill of a tone only (not a level): no data-level.
    expect((lookElement({ text: '3 new', tone: 'info' }) as HTMLElement).hasAttribute('data-level')).toBe(false);
  });

  it('draws muted text, a count and plain text', () => {
    const muted = lookElement({ text: '3/25', muted: true, title: 'refreshing' }) as HTMLElement;
    expect([muted.tagName, muted.className, muted.title, muted.textContent]).toEqual(['SPAN', 'muted', 'refreshing', '3/25']);
    const count = lookElement({ text: '10', count: true }) as HTMLElement;
    expect([count.tagName, count.className, count.hasAttribute('title'), count.textContent]).toEqual(['SPAN', 'count muted', false, '10']);
    const text = lookElement({ text: 'dc-seattle-3', title: 'dc-seattle-3' });
    expect([text.nodeType, text.textContent]).toEqual([Node.TEXT_NODE, 'dc-seattle-3']);
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
