import type { App, BrowserWindow } from 'electron';
import { APP_ID } from './app-identity.js';

type Raisable = Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus' | 'once'>;

/**
 * Brings the window forward: for a second launch (`second-instance`) or a clicked notification. The
 * listener is registered with the single-instance lock, long before the window exists (the core
 * may wait on a keychain unlock first): a launch in that time is kept and honoured when the window
 * is first shown, instead of being lost.
 */
export class WindowFront<W extends Raisable = Raisable> {
  #win: W | undefined;
  #pending = false;

  /** The window once attached, while it is not destroyed. */
  get window(): W | undefined {
    return this.#win && !this.#win.isDestroyed() ? this.#win : undefined;
  }

  /** Raises the window, or remembers to once there is one. */
  request(): void {
    if (this.#win) this.raise();
    else this.#pending = true;
  }

  /** The window to raise from now on; a request made before it existed is honoured when it is shown. */
  attach(win: W): void {
    this.#win = win;
    if (this.#pending) {
      this.#pending = false;
      win.once('ready-to-show', () => this.raise());
    }
  }

  /** Restores, shows and focuses the window, if it is still there. */
  raise(): void {
    const win = this.#win;
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }
}

/**
 * Takes this instance's single-instance lock and, with it, everything a second launch or the OS
 * needs before the (slow) core starts: the `second-instance` listener (raising `front`), and on
 * Windows the AppUserModelID notifications and the taskbar file the app under.
 * @returns false when another instance holds the lock: this one quits.
 */
export function claimInstance(app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'setAppUserModelId'>, instanceKey: string, platform: NodeJS.Platform, front: WindowFront): boolean {
  if (!app.requestSingleInstanceLock({ instance: instanceKey })) return false;
  app.on('second-instance', () => front.request());
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  return true;
}
