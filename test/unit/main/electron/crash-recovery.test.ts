import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { childProcessGoneReporter, CRASH_WINDOW_MS, MAX_RELOADS, watchWindow } from '../../../../main/electron/crash-recovery.js';

class FakeWindow extends EventEmitter {
  readonly webContents = Object.assign(new EventEmitter(), { forcefullyCrashRenderer: vi.fn() });
  readonly loadURL = vi.fn(async () => undefined);
  readonly close = vi.fn();
  destroyed = false;
  isDestroyed = (): boolean => this.destroyed;
}

/** A dialog whose answers the test gives, one per box, in order; the options of each box shown. */
function fakeDialog() {
  const shown: Array<{ options: { message: string; buttons?: string[]; signal?: AbortSignal }; answer: (response: number) => void }> = [];
  return {
    shown,
    showMessageBox: vi.fn((...args: unknown[]) => new Promise<{ response: number; checkboxChecked: boolean }>((resolve) => shown.push({ options: args.at(-1) as never, answer: (response) => resolve({ response, checkboxChecked: false }) }))),
  };
}

const URL_ = 'app://fleetdeck/index.html';
const gone = (reason: string) => ({ reason, exitCode: 5 });

describe("the window's page crashing or hanging", () => {
  it('reloads a crashed page and tells the admin; a clean exit is left alone', () => {
    const win = new FakeWindow();
    const dialog = fakeDialog();
    const log = vi.fn();
    watchWindow(win as never, { dialog: dialog as never, url: URL_, log });
    win.webContents.emit('render-process-gone', {}, gone('clean-exit'));
    expect(win.loadURL).not.toHaveBeenCalled();
    win.webContents.emit('render-process-gone', {}, gone('oom'));
    expect(win.loadURL).toHaveBeenCalledWith(URL_);
    expect(dialog.shown[0]!.options.message).toMatch(/stopped and was reloaded/);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/oom, exit code 5/));
  });

  it('stops reloading on its own after repeated crashes within a minute: the admin chooses', async () => {
    const win = new FakeWindow();
    const dialog = fakeDialog();
    let now = 0;
    watchWindow(win as never, { dialog: dialog as never, url: URL_, log: vi.fn(), now: () => now });
    for (let i = 0; i < MAX_RELOADS; i++) win.webContents.emit('render-process-gone', {}, gone('crashed'));
    expect(win.loadURL).toHaveBeenCalledTimes(MAX_RELOADS);
    win.webContents.emit('render-process-gone', {}, gone('crashed'));
    expect(win.loadURL).toHaveBeenCalledTimes(MAX_RELOADS);
    const loop = dialog.shown.at(-1)!;
    expect(loop.options.buttons).toEqual(['Reload', 'Quit']);
    loop.answer(1);
    await vi.waitFor(() => expect(win.close).toHaveBeenCalled());
    // Crashes a minute apart are not a loop.
    now += CRASH_WINDOW_MS + 1;
    win.webContents.emit('render-process-gone', {}, gone('crashed'));
    expect(win.loadURL).toHaveBeenCalledTimes(MAX_RELOADS + 1);
  });

  it('offers Wait or Reload for a hung page, withdrawn when it answers again; Reload ends the page so it is reloaded', async () => {
    const win = new FakeWindow();
    const dialog = fakeDialog();
    watchWindow(win as never, { dialog: dialog as never, url: URL_, log: vi.fn() });
    win.emit('unresponsive');
    win.emit('unresponsive');
    expect(dialog.shown).toHaveLength(1);
    const first = dialog.shown[0]!;
    expect(first.options.buttons).toEqual(['Wait', 'Reload']);
    win.emit('responsive');
    expect(first.options.signal?.aborted).toBe(true);
    first.answer(0);
    win.emit('unresponsive');
    await vi.waitFor(() => expect(dialog.shown).toHaveLength(2));
    dialog.shown[1]!.answer(1);
    await vi.waitFor(() => expect(win.webContents.forcefullyCrashRenderer).toHaveBeenCalledTimes(1));
    // The page ended at the admin's choice: reloaded without a crash report.
    win.webContents.emit('render-process-gone', {}, gone('killed'));
    expect(win.loadURL).toHaveBeenCalledWith(URL_);
    expect(dialog.shown).toHaveLength(2);
  });
});

describe('helper processes ending', () => {
  it('logs each abnormal end and tells the admin once per process type; an integrity failure says to reinstall', () => {
    const dialog = fakeDialog();
    const log = vi.fn();
    const report = childProcessGoneReporter({ dialog: dialog as never, log }, () => undefined);
    report({ type: 'GPU', reason: 'clean-exit', exitCode: 0 });
    report({ type: 'GPU', reason: 'crashed', exitCode: 139 });
    report({ type: 'GPU', reason: 'crashed', exitCode: 139 });
    report({ type: 'Utility', reason: 'integrity-failure', exitCode: 1, serviceName: 'network.mojom.NetworkService' });
    expect(log).toHaveBeenCalledTimes(3);
    expect(dialog.shown.map((s) => s.options.message)).toEqual(['A Fleetdeck helper process (GPU) stopped', 'A Fleetdeck helper process (network.mojom.NetworkService) stopped']);
    expect(JSON.stringify(dialog.shown[1]!.options)).toMatch(/Reinstall Fleetdeck/);
  });
});
