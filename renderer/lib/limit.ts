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
