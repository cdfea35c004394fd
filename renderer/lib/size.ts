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

/** Each length's width, by the window's width it was read at. */
const widths = new Map<string, number>();

/**
 * The width in rem of an element whose CSS width is `width` (a length of the frame's CSS, such as
 * `var(--panel-table-width)`), read from an invisible probe once per length and window width: for what a view mounted
 * hidden renders before it is laid out (a table's columns, VirtualTable's `expectedWidth`). The
 * numbers stay in the CSS. An estimate: what is measured once laid out decides. 0 where the page has
 * no layout (jsdom).
 */
export function cssWidthRem(width: string): number {
  const key = `${window.innerWidth} ${width}`;
  let rem = widths.get(key);
  if (rem === undefined) {
    const probe = document.createElement('div');
    probe.style.cssText = `position: absolute; visibility: hidden; height: 0; width: ${width}`;
    document.body.append(probe);
    const px = probe.getBoundingClientRect().width;
    const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    probe.remove();
    widths.set(key, (rem = px / root));
  }
  return rem;
}
