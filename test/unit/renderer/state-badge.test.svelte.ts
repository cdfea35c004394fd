import { describe, expect, it } from 'vitest';
import LevelPill, { pillElement } from '../../../renderer/components/LevelPill.svelte';
import StateBadge, { stateBadge } from '../../../renderer/components/StateBadge.svelte';
import { STATE_LOOK } from '../../../renderer/lib/states.js';
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

/** An element's tag, attributes (without Svelte's scoping classes) and children, whitespace between elements left out. */
function shape(el: Element): unknown {
  const attrs = Object.fromEntries(
    [...el.attributes].map((a) => [a.name, a.name === 'class' ? a.value.split(/\s+/).filter((c) => c && !c.startsWith('svelte-')).sort().join(' ') : a.value]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  const children = [...el.childNodes].filter((n) => n.nodeType === 1 || n.textContent?.trim()).map((n) => (n.nodeType === 1 ? shape(n as Element) : n.textContent));
  return { tag: el.tagName.toLowerCase(), attrs, children };
}
