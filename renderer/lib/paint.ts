/**
 * Resolves in a task after the next frame is painted (one queued from its animation frame callback),
 * or after `limitMs` when no frame comes (a hidden or minimised window does not paint; a page with no
 * window at all): what waits for a painted frame must not wait for ever. Its own small module so the
 * entry script's transport (`api.ts`) and the lazy parts (`lazy.ts`) share it.
 */
export function nextPaint(limitMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}
