import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../../main/heap.js';

describe("the heap bound of main's long-running processes", () => {
  it("leaves an admin's own --heap-growing-percent on node's command line alone", () => {
    expect(boundHeapGrowth(['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(['--max-old-space-size=512', '--heap_growing_percent=20'])).toBe(false);
  });

  it('is set otherwise', () => {
    expect(boundHeapGrowth(['--enable-source-maps', '--max-old-space-size=512'])).toBe(true);
  });
});
