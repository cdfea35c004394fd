import { describe, expect, it } from 'vitest';
import StateBadge from '../../../renderer/components/StateBadge.svelte';
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
});
