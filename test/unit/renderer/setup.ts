import { afterEach } from 'vitest';
import { cleanup } from './support/render.js';

/**
 * What jsdom lacks and the renderer uses. jsdom has no layout, so a ResizeObserver that never fires
 * is true to it: components fall back to their configured sizes.
 */
class NoLayoutResizeObserver implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

globalThis.ResizeObserver ??= NoLayoutResizeObserver;

/** jsdom has no media queries: a light-scheme screen where nothing matches and nothing changes. */
window.matchMedia ??= (query: string): MediaQueryList => ({
  matches: false,
  media: query,
  onchange: null,
  addEventListener: () => {},
  removeEventListener: () => {},
  addListener: () => {},
  removeListener: () => {},
  dispatchEvent: () => false,
});

// jsdom logs "not implemented" for canvas; a null context is what components already handle.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

// Every component renderComponent() mounted is unmounted and removed after its test.
afterEach(cleanup);
