import type { Component } from 'svelte';
import { nextPaint } from './paint.js';

/**
 * A part of the page kept out of the first script: Vite makes a chunk of each dynamic `import()`,
 * loaded the first time the part is shown (a view, a system area, the command palette). The first
 * script then holds only what the first frame needs (the frame, the tree, the overview), so the
 * window paints sooner with a large fleet.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Svelte's own Component default: props of any component
export interface LazyPart<Props extends Record<string, any>> {
  /** What the loading and error lines call it ("the reports view"). */
  readonly what: string;
  /** The component once loaded: shown at once, without a loading line, from then on. */
  readonly loaded: Component<Props> | undefined;
  /** Loads it (once; a failed load is tried again at the next call). */
  load(): Promise<Component<Props>>;
}

const inFlight = new Set<Promise<unknown>>();

/** A module's value loaded on first use: kept once loaded, tried again after a failure. */
export interface LoadOnce<T> {
  readonly value: T | undefined;
  load(): Promise<T>;
}

export function loadOnce<T>(importer: () => Promise<T>): LoadOnce<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    get value() {
      return value;
    },
    load() {
      if (value !== undefined) return Promise.resolve(value);
      if (!pending) {
        const p = importer().then(
          (v) => (value = v),
          (err: unknown) => {
            // Not kept: Retry imports again (browsers that keep a failed module fetch in their
            // module map fail it again at once; a reopened window loads it anew).
            pending = undefined;
            throw err;
          },
        );
        pending = p;
        inFlight.add(p);
        void p.catch(() => undefined).finally(() => inFlight.delete(p));
      }
      return pending;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Svelte's own Component default: props of any component
export function lazyPart<Props extends Record<string, any>>(what: string, importer: () => Promise<{ default: Component<Props> }>): LazyPart<Props> {
  const once = loadOnce(async () => (await importer()).default);
  return {
    what,
    get loaded() {
      return once.value;
    },
    load: () => once.load(),
  };
}

/** Resolves once no part is loading and nothing waits for a painted frame (tests wait for it instead of for time). */
export async function partsLoaded(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * Resolves after the next frame is painted (a task after the next animation frame), or after
 * `limitMs` when no frame comes (a hidden or minimised window does not paint): what waits for the
 * first frame must not wait for ever.
 */
export function afterNextPaint(limitMs = 1000): Promise<void> {
  const painted = nextPaint(limitMs);
  inFlight.add(painted);
  void painted.finally(() => inFlight.delete(painted));
  return painted;
}

/**
 * Resolves when the page is next idle (`requestIdleCallback`), or after `limitMs` when it does not
 * become idle: for work wanted soon but not in the busy frames right after the first (loading parts
 * that open only on a click). Without the callback (jsdom) it resolves in the next task.
 */
export function afterIdle(limitMs = 2000): Promise<void> {
  const idle = new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: limitMs });
    else setTimeout(resolve, 0);
  });
  inFlight.add(idle);
  void idle.finally(() => inFlight.delete(idle));
  return idle;
}
