import { createSubscriber } from 'svelte/reactivity';

/** "Now", updating every 30 s while something reads it, so "5 min ago" stays true without timers per view. */
class Clock {
  readonly #subscribe = createSubscriber((update) => {
    const id = setInterval(update, 30_000);
    return () => clearInterval(id);
  });

  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}

export const clock = new Clock();

/** Whether the document is visible, updating on `visibilitychange`: live views poll only while it is. */
class PageVisibility {
  readonly #subscribe = createSubscriber((update) => {
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  });

  get visible(): boolean {
    this.#subscribe();
    return document.visibilityState === 'visible';
  }
}

export const pageVisibility = new PageVisibility();
