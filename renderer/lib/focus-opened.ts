import type { Route } from './nav.svelte.js';

/**
 * The attribute a drill-down (a host, a drive, a NIC, a node, an operation) sets on its section:
 * the element that takes focus when it is opened from the keyboard (made focusable if need be).
 */
export const OPENED_ATTR = 'data-opened';

/** Frames to wait for what was opened to be drawn (a view's script chunk may still be loading). */
const WAIT_FRAMES = 120;

/**
 * Whether a navigation made from `from` (the element focused when the route changed) should move
 * focus into what it opened: yes from the palette or another dialog, when focus was lost with the
 * element that had it (a table whose row opened a view), or when a view's control opened a
 * drill-down; no when it stays in the tree, the header or on a view's tab, which keep their place.
 */
export function movesFocus(from: Element | null, route: Route, main: HTMLElement): boolean {
  if (!from || from === document.body || !from.isConnected) return true;
  if (from.closest('[role=dialog]')) return true;
  return main.contains(from) && route.view === 'system' && route.detail !== undefined;
}

/**
 * Moves focus into what `route` opened once it is drawn in `main`, when `movesFocus` says so for
 * `from` (the element focused before the route changed, judged once the new route is drawn): a
 * drill-down's section marked `data-opened`, else the view's heading (made focusable). Gives up when
 * a dialog has opened meanwhile (it owns focus) or nothing is drawn within `WAIT_FRAMES` frames.
 */
export function focusOpened(route: Route, main: HTMLElement, from: Element | null): void {
  const wantsDetail = route.view === 'system' && route.detail !== undefined;
  let frames = 0;
  const step = (): void => {
    if (frames++ === 0 && !movesFocus(from, route, main)) return;
    if (document.querySelector('[aria-modal=true]')) return;
    const detail = main.querySelector<HTMLElement>(`[${OPENED_ATTR}]`);
    const heading = main.querySelector<HTMLElement>('h1');
    const target = detail ?? (!wantsDetail || frames >= WAIT_FRAMES ? heading : null);
    if (target) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
      return;
    }
    if (frames < WAIT_FRAMES) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}
