import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** Temporary directories for one test file, removed after each test. */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-store-'));
    dirs.push(d);
    return d;
  };
}

/** A clock that advances one second per call, from a fixed start. */
export function steppingClock(start = '2025-01-01T00:00:00.000Z'): () => Date {
  let t = Date.parse(start);
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}
