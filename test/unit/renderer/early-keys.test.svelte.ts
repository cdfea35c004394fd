import { describe, expect, it } from 'vitest';
import { keepEarlyKeys } from '../../../renderer/lib/early-keys.js';
import { isPaletteShortcut } from '../../../renderer/lib/shortcuts.js';

const press = (init: KeyboardEventInit): KeyboardEvent => {
  const e = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  document.body.dispatchEvent(e);
  return e;
};

describe('keepEarlyKeys', () => {
  it("keeps the window's shortcut pressed before the frame and hands it to the frame's handler once mounted", () => {
    const early = keepEarlyKeys(window, isPaletteShortcut);
    const before = press({ key: 'k', ctrlKey: true });
    // Its default is prevented as the frame's handler would (the browser's address bar keeps out).
    expect(before.defaultPrevented).toBe(true);
    // Other keys are left alone, held keys are not queued.
    expect(press({ key: 'k' }).defaultPrevented).toBe(false);
    expect(press({ key: 'r', ctrlKey: true }).defaultPrevented).toBe(false);
    press({ key: 'K', metaKey: true, shiftKey: true, repeat: true });

    // The frame mounts: its handler listens on the window.
    const got: string[] = [];
    const handler = (e: KeyboardEvent): void => {
      if (isPaletteShortcut(e)) got.push(`${e.ctrlKey ? 'ctrl+' : ''}${e.key}`);
    };
    window.addEventListener('keydown', handler);
    try {
      early.replay();
      expect(got).toEqual(['ctrl+k']);
      // Once: from now on the frame's handler alone sees keys, and a second replay hands nothing.
      early.replay();
      const after = press({ key: 'k', ctrlKey: true });
      expect(got).toEqual(['ctrl+k', 'ctrl+k']);
      expect(after.defaultPrevented).toBe(false);
    } finally {
      window.removeEventListener('keydown', handler);
    }
  });

  it('keeps a few at most, in order, and nothing once stopped (the frame failed to load)', () => {
    const early = keepEarlyKeys(window, isPaletteShortcut);
    for (let i = 0; i < 10; i++) press({ key: 'k', ctrlKey: true });
    const got: number[] = [];
    const count = (): number => got.push(1);
    window.addEventListener('keydown', count);
    try {
      early.replay();
      expect(got.length).toBe(4);
      const stopped = keepEarlyKeys(window, isPaletteShortcut);
      press({ key: 'k', ctrlKey: true });
      stopped.stop();
      got.length = 0;
      stopped.replay();
      expect(got).toEqual([]);
      expect(press({ key: 'k', ctrlKey: true }).defaultPrevented).toBe(false);
    } finally {
      window.removeEventListener('keydown', count);
    }
  });
});
