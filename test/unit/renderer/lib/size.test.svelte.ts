import { afterEach, describe, expect, it } from 'vitest';
import { cssWidthRem, measure, windowInnerHeight } from '../../../../renderer/lib/size.js';

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
  it("gives the window's height, and a CSS length's width in rem read once from a probe per window width", () => {
    expect(windowInnerHeight()).toBe(window.innerHeight);
    const box = HTMLElement.prototype.getBoundingClientRect;
    const probed: string[] = [];
    // jsdom lays nothing out: a probe is as wide as its pixels say, at jsdom's 16 px root size.
    HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
      probed.push(this.style.width);
      expect(this.isConnected).toBe(true);
      const px = /^(\d+)px$/.exec(this.style.width);
      return new DOMRect(0, 0, px ? Number(px[1]) : 0, 0);
    };
    const width = window.innerWidth;
    const children = document.body.children.length;
    try {
      expect(cssWidthRem('320px')).toBe(20);
      expect(cssWidthRem('320px')).toBe(20);
      expect(probed).toEqual(['320px']);
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width + 100 });
      expect(cssWidthRem('320px')).toBe(20);
      expect(probed).toEqual(['320px', '320px']);
      // The probe leaves nothing behind.
      expect(document.body.children.length).toBe(children);
    } finally {
      HTMLElement.prototype.getBoundingClientRect = box;
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });
});
