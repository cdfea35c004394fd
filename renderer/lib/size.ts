/**
 * An element's size as the browser laid it out, read when it has (a ResizeObserver's callback, which
 * runs right after layout: the first once the element is rendered, then at each change of its size).
 * Svelte's `bind:clientWidth`/`bind:clientHeight` also read the size when the element is mounted,
 * and a read while the window's first frame is being built lays the whole page out once per bound
 * element (11 forced layouts, ~45 ms of the first frame at 1,000 systems, issue 17). Until the first
 * callback (never, without layout: jsdom) the caller keeps its own fallback.
 *
 * Use as an attachment: `{@attach measure((el) => (width = el.clientWidth))}`.
 */
export function measure<E extends HTMLElement>(onsize: (el: E) => void): (el: E) => () => void {
  return (el) => {
    const observer = new ResizeObserver(() => onsize(el));
    observer.observe(el);
    return () => observer.disconnect();
  };
}
