import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { claimInstance, WindowFront } from '../../../../main/electron/single-instance.js';

function fakeApp(lock: boolean) {
  const calls: string[] = [];
  const listeners = new Map<string, () => void>();
  return {
    calls,
    listeners,
    requestSingleInstanceLock: (data?: Record<string, unknown>) => (calls.push(`lock ${JSON.stringify(data)}`), lock),
    on: (event: string, listener: () => void) => (calls.push(`on ${event}`), listeners.set(event, listener)),
    setAppUserModelId: (id: string) => void calls.push(`setAppUserModelId ${id}`),
  };
}

class FakeWindow extends EventEmitter {
  readonly calls: string[] = [];
  destroyed = false;
  minimized = true;
  isDestroyed = (): boolean => this.destroyed;
  isMinimized = (): boolean => this.minimized;
  restore = (): void => void this.calls.push('restore');
  show = (): void => void this.calls.push('show');
  focus = (): void => void this.calls.push('focus');
}

describe('the single-instance lock', () => {
  it('registers second-instance together with the lock, and on Windows the AppUserModelID', () => {
    const app = fakeApp(true);
    expect(claimInstance(app as never, 'site-paris', 'win32', new WindowFront())).toBe(true);
    expect(app.calls).toEqual(['lock {"instance":"site-paris"}', 'on second-instance', 'setAppUserModelId io.fleetdeck.desktop']);
  });

  it('sets no AppUserModelID elsewhere; registers nothing when another instance holds the lock', () => {
    const linux = fakeApp(true);
    claimInstance(linux as never, 'fleet', 'linux', new WindowFront());
    expect(linux.calls).toEqual(['lock {"instance":"fleet"}', 'on second-instance']);
    const second = fakeApp(false);
    expect(claimInstance(second as never, 'fleet', 'win32', new WindowFront())).toBe(false);
    expect(second.calls).toEqual(['lock {"instance":"fleet"}']);
  });

  it('a second launch before the window exists raises the window once it is shown; later ones raise it at once', () => {
    const app = fakeApp(true);
    const front = new WindowFront();
    claimInstance(app as never, 'fleet', 'linux', front);
    app.listeners.get('second-instance')!();
    const win = new FakeWindow();
    front.attach(win as never);
    expect(win.calls).toEqual([]);
    win.emit('ready-to-show');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    win.minimized = false;
    app.listeners.get('second-instance')!();
    expect(win.calls.slice(3)).toEqual(['show', 'focus']);
    win.destroyed = true;
    app.listeners.get('second-instance')!();
    expect(win.calls).toHaveLength(5);
  });
});
