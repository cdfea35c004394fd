import { describe, expect, it } from 'vitest';
import LevelPill from '../../../renderer/components/LevelPill.svelte';
import StateBadge from '../../../renderer/components/StateBadge.svelte';
import { STATE_LOOK } from '../../../renderer/lib/states.js';
import { lookNode } from '../../../renderer/components/looks.js';
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

describe('lookNode', () => {
  // VirtualTable's cells and FleetTree's row parts show copies of what the components render (the
  // same nodes, scoping classes and all), in full or compact form, with or without a tooltip.
  it('draws a state as StateBadge renders it, full or compact, the look\'s title as the badge\'s detail', () => {
    for (const state of [...Object.keys(STATE_LOOK), 'mystery']) {
      for (const props of [{}, { compact: true }, { detail: 'connect ECONNREFUSED' }, { compact: true, detail: 'connect ECONNREFUSED' }]) {
        const rendered = renderComponent(StateBadge, { state, ...props }).target.firstElementChild as Element;
        const drawn = lookNode({ text: state, state, compact: props.compact, title: props.detail }) as Element;
        expect(drawn.isEqualNode(rendered), `${state} ${JSON.stringify(props)}: ${drawn.outerHTML} ${rendered.outerHTML}`).toBe(true);
      }
    }
  });

  it('draws a level as LevelPill renders it, with or without its tooltip, and the compact pill of the tree with its test id', () => {
    const same = (drawn: Node, rendered: Element): void => expect((drawn as Element).isEqualNode(rendered), `${(drawn as Element).outerHTML} ${rendered.outerHTML}`).toBe(true);
    const withReasons = renderComponent(LevelPill, { level: 'warning', text: 'nearly full', reasons: ['p1 at 91%', 'p2 at 95%'] }).target.firstElementChild as Element;
    same(lookNode({ text: 'nearly full', tone: 'warning', level: 'warning', title: 'p1 at 91%; p2 at 95%' }), withReasons);
    const plain = renderComponent(LevelPill, { level: 'critical' }).target.firstElementChild as Element;
    same(lookNode({ text: 'critical', tone: 'critical', level: 'critical' }), plain);
    // A copy of the same kind with another text and tooltip.
    same(lookNode({ text: 'critical', tone: 'critical', level: 'critical', title: 'p1 full' }), renderComponent(LevelPill, { level: 'critical', reasons: ['p1 full'] }).target.firstElementChild as Element);
    const mini = renderComponent(LevelPill, { level: 'warning', compact: true, reasons: ['hardware: 99 % healthy'], testid: 'tree-health' }).target.firstElementChild as Element;
    same(lookNode({ text: 'warning', tone: 'warning', level: 'warning', compact: true, title: 'hardware: 99 % healthy', testid: 'tree-health' }), mini);
    // A pill of a tone only (not a level): the theme's pill, no data-level.
    const info = lookNode({ text: '3 new', tone: 'info', title: 'new notifications' }) as HTMLElement;
    expect([info.className, info.title, info.hasAttribute('data-level'), info.textContent]).toEqual(['pill tone-info', 'new notifications', false, '3 new']);
  });

  it('draws muted text, a count and plain text', () => {
    const muted = lookNode({ text: '3/25', muted: true, title: 'refreshing' }) as HTMLElement;
    expect([muted.tagName, muted.className, muted.title, muted.textContent]).toEqual(['SPAN', 'muted', 'refreshing', '3/25']);
    const count = lookNode({ text: '10', count: true }) as HTMLElement;
    expect([count.tagName, count.className, count.hasAttribute('title'), count.textContent]).toEqual(['SPAN', 'count muted', false, '10']);
    const text = lookNode({ text: 'dc-seattle-3', title: 'dc-seattle-3' });
    expect([text.nodeType, text.textContent]).toEqual([Node.TEXT_NODE, 'dc-seattle-3']);
  });
});
