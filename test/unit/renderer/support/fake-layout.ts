/**
 * Layout jsdom does not do, for tests of what the window measures (the tables' and the
 * tree's first window, their columns). `fakeResizeObserver` replaces the global ResizeObserver with
 * one that calls back as a browser's does once an element is laid out: a microtask after `observe`
 * (`'microtask'`), or only when the test says so (`'manual'`, `deliver()`), each call reporting its
 * one element. `restore()` puts the real (or absent) one back.
 */
export function fakeResizeObserver(when: 'microtask' | 'manual', observed: Element[] = []): { deliver: () => void; restore: () => void } {
  const real = globalThis.ResizeObserver;
  const pending: Array<() => void> = [];
  globalThis.ResizeObserver = class implements ResizeObserver {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element): void {
      observed.push(target);
      const call = (): void => this.callback([{ target } as ResizeObserverEntry], this);
      if (when === 'microtask') queueMicrotask(call);
      else pending.push(call);
    }
    unobserve(): void {}
    disconnect(): void {}
  };
  return {
    deliver: () => pending.forEach((call) => call()),
    restore: () => {
      globalThis.ResizeObserver = real;
    },
  };
}

/**
 * Every element's `clientWidth` or `clientHeight` (jsdom reports 0) read from `get` until the
 * returned undo puts jsdom's back.
 */
export function fakeElementSize(prop: 'clientWidth' | 'clientHeight', get: () => number): () => void {
  const real = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get });
  return () => {
    if (real) Object.defineProperty(HTMLElement.prototype, prop, real);
  };
}
