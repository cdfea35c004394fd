import { mount, unmount, type Component } from 'svelte';
import { badgeParts, type CellLook } from '../lib/table.js';
import LevelPill from './LevelPill.svelte';
import StateBadge from './StateBadge.svelte';

/**
 * What a drawn row (lib/rows.ts) shows for a look: a state badge and a level pill are copies of what
 * `StateBadge` and `LevelPill` render, so their markup and styles exist once, in the components. Each
 * is rendered once per kind (state, level, size) and kept; a look is a copy of it with its own text
 * and tooltip, the two props both components put on their root element as they are.
 */
const rendered = new Map<string, Element>();

function copyOf<P extends Record<string, unknown>>(key: string, component: Component<P>, props: P): HTMLElement {
  let el = rendered.get(key);
  if (!el) {
    const target = document.createElement('div');
    const instance = mount(component, { target, props });
    el = target.firstElementChild as Element;
    void unmount(instance);
    rendered.set(key, el);
  }
  return el.cloneNode(true) as HTMLElement;
}

function setTitle(el: HTMLElement, title: string | undefined): void {
  if (title) el.title = title;
  else el.removeAttribute('title');
}

/**
 * A look as a node: a state badge (its `title` the badge's detail), a level pill (`compact` in the
 * tree), a pill of a tone with no level (the theme's `.pill`), muted text (a count's), or plain text.
 */
export function lookNode(look: CellLook): Node {
  if (look.state !== undefined) {
    const state = look.state;
    const badge = copyOf(`badge ${look.compact ? 'compact' : 'full'} ${state}`, StateBadge, { state, compact: look.compact ?? false });
    badge.title = badgeParts(state, look.title).title;
    return badge;
  }
  if (look.level !== undefined) {
    const level = look.level;
    const pill = copyOf(`pill ${level} ${look.compact ? 'compact' : 'full'} ${look.testid ?? ''}`, LevelPill, { level, compact: look.compact ?? false, testid: look.testid });
    pill.textContent = look.text;
    setTitle(pill, look.title);
    return pill;
  }
  if (look.tone !== undefined) {
    const pill = document.createElement('span');
    pill.className = `pill tone-${look.tone}`;
    if (look.testid !== undefined) pill.dataset.testid = look.testid;
    setTitle(pill, look.title);
    pill.textContent = look.text;
    return pill;
  }
  if (!look.muted && !look.count) return document.createTextNode(look.text);
  const span = document.createElement('span');
  span.className = look.count ? 'count muted' : 'muted';
  setTitle(span, look.title);
  span.textContent = look.text;
  return span;
}
