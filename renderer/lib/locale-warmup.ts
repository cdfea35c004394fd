/**
 * Loads the locale data of the window's first frame (its name collator and number format) on a worker
 * thread while the frame's script loads and main answers the first reads: the page's main thread then
 * builds its own objects (`locale-formats.ts`) without loading that data itself. Where no worker can
 * start, nothing changes but the time: the page's objects load the data when first built.
 */
export function warmLocaleData(): void {
  if (typeof Worker !== 'function') return;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./locale-data.worker.ts', import.meta.url), { name: 'locale-data' });
  } catch {
    return;
  }
  const done = (): void => worker.terminate();
  worker.onmessage = done;
  worker.onerror = done;
}
