/**
 * Calls `onsize` with an element's size once the browser has laid it out, and again at each change.
 * The rule: never read a size outside a ResizeObserver callback. A read while the page is being built
 * (as `bind:clientWidth` does at mount) forces a layout of the whole page. All measured elements share
 * one observer, so every size is read in one callback on the same layout. Until the first callback
 * (never in jsdom) the caller keeps its own fallback.
 *
 * Use as an attachment: `{@attach measure((el) => (width = el.clientWidth))}`.
 */
export function measure<E extends HTMLElement>(onsize: (el: E) => void): (el: E) => () => void {
  return (el) => {
    const observer = sharedObserver();
    const call = (): void => onsize(el);
    let calls = sizeCallbacks.get(el);
    if (!calls) sizeCallbacks.set(el, (calls = new Set()));
    calls.add(call);
    observer.observe(el);
    return () => {
      calls.delete(call);
      if (calls.size > 0) return;
      sizeCallbacks.delete(el);
      observer.unobserve(el);
    };
  };
}

const sizeCallbacks = new Map<Element, Set<() => void>>();
let shared: { observer: ResizeObserver; by: typeof ResizeObserver } | undefined;

/** The page's one observer (made again only when `ResizeObserver` itself is replaced: tests do). */
function sharedObserver(): ResizeObserver {
  if (shared?.by !== ResizeObserver) {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) for (const call of sizeCallbacks.get(entry.target) ?? []) call();
    });
    shared = { observer, by: ResizeObserver };
  }
  return shared.observer;
}

/**
 * The window's inner height: the most a view inside it can show, known before any layout (600 px
 * where the page has none). A virtual list mounted hidden renders its first window for it, so the
 * size measured after the first layout needs no second render.
 */
export function windowInnerHeight(): number {
  return typeof window !== 'undefined' && window.innerHeight > 0 ? window.innerHeight : 600;
}

/** The root font size theme.css sets (`html { font-size: 14px }`), for widths known before layout. */
export const ROOT_FONT_PX = 14;

/**
 * The width in rem of the frame's main column's content, from the window's width and the frame's CSS
 * (theme.css: a 14 px root font; App.svelte: the sidebar clamp(15rem, 22vw, 19rem), main's padding
 * 1.25rem a side): known before any layout, for what the frame, mounted hidden, renders first (a
 * table's columns, VirtualTable's `expectedWidth`). An estimate (a scrollbar, a zoomed or changed
 * stylesheet moves it): what is measured once laid out decides. 0 where the page has no width.
 */
export function mainWidthRem(): number {
  const vw = typeof window !== 'undefined' ? window.innerWidth : 0;
  if (!(vw > 0)) return 0;
  const rem = vw / ROOT_FONT_PX;
  const sidebar = Math.min(Math.max(15, (0.22 * vw) / ROOT_FONT_PX), 19);
  return Math.max(0, rem - sidebar - 2 * 1.25);
}
