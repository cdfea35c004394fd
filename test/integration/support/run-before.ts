import { beforeAll } from 'vitest';

/**
 * Starts a run before the tests of the enclosing describe and keeps it in `runs` (for the file's
 * afterAll to close); returns the run, once started.
 */
export function runBefore<T>(start: () => Promise<T>, runs: T[], timeoutMs = 120_000): () => T {
  let r: T | undefined;
  beforeAll(async () => {
    r = await start();
    runs.push(r);
  }, timeoutMs);
  return () => r as T;
}
