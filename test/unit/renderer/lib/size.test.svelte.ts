import { afterEach, describe, expect, it } from 'vitest';
import { mainWidthRem, measure, windowInnerHeight } from '../../../../renderer/lib/size.js';

/**
 * Every measured element shares one observer, so the sizes of all of them are read in one
 * callback, on the layout just made. With one observer each, the page ran its microtasks (Svelte
 * applying the size just read) between callbacks, and the next read laid the page out again.
 */
const noLayout = globalThis.ResizeObserver;
afterEach(() => {
  globalThis.ResizeObserver = noLayout;
});

/** A browser's observer as far as `measure` uses it; `deliver` calls back as the browser does after a layout. */
class FakeObserver implements ResizeObserver {
  static made: FakeObserver[] = [];
  observed = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    FakeObserver.made.push(this);
  }
  observe(target: Element): void {
    this.observed.add(target);
  }
  unobserve(target: Element): void {
    this.observed.delete(target);
  }
  disconnect(): void {
    this.observed.clear();
  }
  deliver(): void {
    if (this.observed.size) this.callback([...this.observed].map((target) => ({ target }) as ResizeObserverEntry), this);
  }
}

function fakeObservers(): { made: FakeObserver[]; deliver: () => void } {
  const made: FakeObserver[] = [];
  FakeObserver.made = made;
  // A class of its own per test, as the shared observer is made again when the constructor changes.
  globalThis.ResizeObserver = class extends FakeObserver {};
  return { made, deliver: () => made.forEach((o) => o.deliver()) };
}

describe('measure', () => {
  it('reads every measured element in one observer callback, and stops reading an element once detached', () => {
    const { made, deliver } = fakeObservers();
    const read: string[] = [];
    const [a, b] = [document.createElement('div'), document.createElement('div')];
    const detachA = measure((el) => read.push(`a:${el === a}`))(a);
    const detachB = measure((el) => read.push(`b:${el === b}`))(b);
    expect(made).toHaveLength(1);

    deliver();
    expect(read).toEqual(['a:true', 'b:true']);

    detachA();
    read.length = 0;
    deliver();
    expect(read).toEqual(['b:true']);
    expect(made[0]?.observed.has(a)).toBe(false);
    detachB();
    expect(made[0]?.observed.size).toBe(0);
  });

  it('keeps observing an element measured twice until both let go', () => {
    const { made, deliver } = fakeObservers();
    const el = document.createElement('div');
    let first = 0;
    let second = 0;
    const detachFirst = measure(() => first++)(el);
    const detachSecond = measure(() => second++)(el);
    deliver();
    detachFirst();
    deliver();
    expect([first, second]).toEqual([1, 2]);
    expect(made[0]?.observed.has(el)).toBe(true);
    detachSecond();
    expect(made[0]?.observed.has(el)).toBe(false);
  });
});

describe('sizes known before layout', () => {
  it("gives the window's height, and the main column's width as the frame's CSS lays it out", () => {
    expect(windowInnerHeight()).toBe(window.innerHeight);
    const width = window.innerWidth;
    try {
      // 1440 px at 14 px a rem: 102.86 rem, less the sidebar (19rem: 22vw is wider) and main's padding.
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1440 });
      expect(mainWidthRem()).toBeCloseTo(1440 / 14 - 19 - 2.5, 5);
      // 1000 px: the sidebar is 22vw (220 px), between its 15rem and 19rem bounds.
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1000 });
      expect(mainWidthRem()).toBeCloseTo((1000 - 220) / 14 - 2.5, 5);
      // 800 px: 22vw is below 15rem.
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 800 });
      expect(mainWidthRem()).toBeCloseTo(800 / 14 - 15 - 2.5, 5);
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });
});
