/**
 * Runs `fn` over items with at most `limit` in flight. Fleet-wide views read the cache of every
 * system; a cap keeps a thousand systems from queueing a thousand IPC calls at once.
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Like {@link forEachLimit}, but hands the results over in batches: `publish` gets every `batch`
 * finished results at once, and the rest at the end (also when a call fails). A fleet-wide view
 * that derives its lists from every system then recomputes once per batch instead of once per
 * system, which at 1,000 systems is the difference between linear and quadratic work.
 */
export async function mapLimitBatched<T, R>(items: readonly T[], limit: number, batch: number, fn: (item: T) => Promise<R>, publish: (done: ReadonlyArray<readonly [T, R]>) => void): Promise<void> {
  let pending: Array<readonly [T, R]> = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const done = pending;
    pending = [];
    publish(done);
  };
  try {
    await forEachLimit(items, limit, async (item) => {
      const result = await fn(item);
      // After the await: `pending` may have been handed over (and replaced) meanwhile.
      pending.push([item, result]);
      if (pending.length >= batch) flush();
    });
  } finally {
    flush();
  }
}
