import { describe, expect, it } from 'vitest';
import { answersOrDeadline, pageReady } from '../../../renderer/lib/page-ready.js';

/** A document as the async entry may find it: still parsing or not, with its stylesheet loaded or not. */
function page(opts: { parsing?: boolean; app?: boolean; sheetLoaded?: boolean }): { doc: Document; link: HTMLLinkElement } {
  const doc = document.implementation.createHTMLDocument('Fleetdeck');
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = './assets/style.css';
  doc.head.append(link);
  Object.defineProperty(link, 'sheet', { configurable: true, get: () => (opts.sheetLoaded ? ({} as CSSStyleSheet) : null) });
  if (opts.app !== false) doc.body.append(Object.assign(doc.createElement('div'), { id: 'app' }));
  Object.defineProperty(doc, 'readyState', { configurable: true, value: opts.parsing ? 'loading' : 'complete' });
  return { doc, link };
}

/** Whether `p` has settled after the queued microtasks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('pageReady (the async entry mounts the frame only on a styled, parsed page)', () => {
  it('waits for a stylesheet still loading, then gives the #app element', async () => {
    const { doc, link } = page({ sheetLoaded: false });
    const ready = pageReady(doc);
    expect(await settled(ready)).toBe(false);
    link.dispatchEvent(new Event('load'));
    expect(await ready).toBe(doc.getElementById('app'));
  });

  it('mounts without the styles when the stylesheet failed: a usable window rather than a blank one', async () => {
    const { doc, link } = page({ sheetLoaded: false });
    const ready = pageReady(doc);
    link.dispatchEvent(new Event('error'));
    expect(await ready).toBe(doc.getElementById('app'));
  });

  it('waits for the parser to reach #app when the entry ran while the document was still parsing', async () => {
    const { doc } = page({ parsing: true, app: false, sheetLoaded: true });
    const ready = pageReady(doc);
    expect(await settled(ready)).toBe(false);
    doc.body.append(Object.assign(doc.createElement('div'), { id: 'app' }));
    doc.dispatchEvent(new Event('DOMContentLoaded'));
    expect(await ready).toBe(doc.getElementById('app'));
  });

  it('does not wait when everything is already there', async () => {
    const { doc } = page({ sheetLoaded: true });
    expect(await settled(pageReady(doc))).toBe(true);
  });

  it('rejects a document without #app', async () => {
    const { doc } = page({ app: false, sheetLoaded: true });
    await expect(pageReady(doc)).rejects.toThrow('no #app element');
  });
});

describe('answersOrDeadline (the frame is shown with the first answers, or without them when they are late)', () => {
  const never = new Promise<void>(() => undefined);

  it('resolves once the answers are in, or have failed', async () => {
    const noTimer = (): void => undefined;
    expect(await settled(answersOrDeadline(Promise.resolve(), 500, noTimer))).toBe(true);
    expect(await settled(answersOrDeadline(Promise.reject(new Error('refused')), 500, noTimer))).toBe(true);
    expect(await settled(answersOrDeadline(never, 500, noTimer))).toBe(false);
  });

  it('cancels its deadline once the answers are in', async () => {
    let cancelled = 0;
    await answersOrDeadline(Promise.resolve(), 500, () => () => void cancelled++);
    expect(cancelled).toBe(1);
  });

  it('resolves at the deadline when they are not in by then', async () => {
    const timers: Array<[() => void, number]> = [];
    const waiting = answersOrDeadline(never, 500, (run, ms) => void timers.push([run, ms]));
    expect(timers.map(([, ms]) => ms)).toEqual([500]);
    expect(await settled(waiting)).toBe(false);
    timers[0]![0]();
    expect(await settled(waiting)).toBe(true);
  });
});
