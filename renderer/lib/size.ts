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
 * where the page has none). A virtual list renders its first window for it before its first layout,
 * so the size measured then needs no second render.
 */
export function windowInnerHeight(): number {
  return typeof window !== 'undefined' && window.innerHeight > 0 ? window.innerHeight : 600;
}
