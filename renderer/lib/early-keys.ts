/** At most this many kept: a key held or hammered while a slow start goes on is not a queue of intents. */
const MAX_KEPT = 4;

/**
 * Keeps the window's shortcuts pressed before its frame is mounted (a key pressed while a large
 * fleet's window opens would reach no handler) and hands them to the frame once it is, as a
 * desktop application's event queue would: `replay` dispatches each again on the window,
 * where the frame's shortcut handler listens. A kept key's default is prevented, as the frame's
 * handler does (Ctrl+K would otherwise move the browser shell's focus to the address bar); other
 * keys are left alone (no element has focus yet, nothing else could take them). Key repeats are not
 * kept. Replayed events are synthetic: they reach the window's listeners only and cause no default
 * action. One capturing listener until then: nothing else runs before the frame.
 */
export function keepEarlyKeys(win: Window, isShortcut: (e: KeyboardEvent) => boolean): { replay(): void; stop(): void } {
  const kept: KeyboardEventInit[] = [];
  const keep = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || !isShortcut(e)) return;
    e.preventDefault();
    if (e.repeat || kept.length >= MAX_KEPT) return;
    const { key, code, location, ctrlKey, metaKey, shiftKey, altKey } = e;
    kept.push({ key, code, location, ctrlKey, metaKey, shiftKey, altKey, bubbles: true, cancelable: true });
  };
  win.addEventListener('keydown', keep, true);
  const stop = (): void => {
    win.removeEventListener('keydown', keep, true);
  };
  return {
    replay() {
      stop();
      for (const init of kept.splice(0)) win.dispatchEvent(new KeyboardEvent('keydown', init));
    },
    stop() {
      stop();
      kept.length = 0;
    },
  };
}
