import type { BrowserWindow, Dialog, MessageBoxOptions, RenderProcessGoneDetails } from 'electron';

/** The parts of Electron a watched window's recovery uses (tests hand in fakes). */
export interface RecoveryDeps {
  dialog: Pick<Dialog, 'showMessageBox'>;
  /** The page the window shows; loaded again after its renderer is gone. */
  url: string;
  /** One line for the log (stderr). */
  log: (line: string) => void;
  /** Milliseconds since some fixed point (default `Date.now`). */
  now?: () => number;
}

/** Crashes within this many milliseconds that count as a loop. */
export const CRASH_WINDOW_MS = 60_000;
/** Crashes within {@link CRASH_WINDOW_MS} after which the window is no longer reloaded on its own. */
export const MAX_RELOADS = 3;

type Watched = Pick<BrowserWindow, 'isDestroyed' | 'on' | 'loadURL' | 'close'> & { webContents: Pick<BrowserWindow['webContents'], 'on' | 'forcefullyCrashRenderer'> };

/**
 * Tells the admin when the window's page is gone (crashed, killed, out of memory) and loads it
 * again; the core runs in main, so nothing of the fleet is lost, only what the page held. A page
 * that keeps crashing is not reloaded in a loop: after {@link MAX_RELOADS} within a minute the
 * admin chooses. A page that stops answering gets a choice to wait or reload, withdrawn if it
 * answers again.
 */
export function watchWindow(win: Watched, d: RecoveryDeps): void {
  const now = d.now ?? Date.now;
  const crashes: number[] = [];
  const ask = (options: MessageBoxOptions): Promise<number> =>
    d.dialog.showMessageBox(win as BrowserWindow, options).then(
      (r) => r.response,
      () => -1,
    );
  const reload = (): void => {
    if (!win.isDestroyed()) void win.loadURL(d.url).catch((err: unknown) => d.log(`reloading the window: ${err instanceof Error ? err.message : String(err)}`));
  };

  /** Set when the admin chose to reload a hung page: its end is then no crash to report. */
  let endedByChoice = false;
  win.webContents.on('render-process-gone', (_event, details: RenderProcessGoneDetails) => {
    if (details.reason === 'clean-exit' || win.isDestroyed()) return;
    if (endedByChoice) {
      endedByChoice = false;
      reload();
      return;
    }
    d.log(`the window's page stopped (${details.reason}, exit code ${details.exitCode})`);
    const t = now();
    crashes.push(t);
    while (crashes.length && crashes[0]! < t - CRASH_WINDOW_MS) crashes.shift();
    const looping = crashes.length > MAX_RELOADS;
    const detail = `Reason: ${details.reason} (exit code ${details.exitCode}). The fleet, its sites and any change in progress run outside the page and were not affected.`;
    if (!looping) {
      reload();
      void ask({ type: 'warning', title: 'Fleetdeck', message: "Fleetdeck's window stopped and was reloaded", detail: `${detail} Only what the page itself held (a form being filled in) is lost.`, buttons: ['OK'] });
      return;
    }
    void ask({ type: 'error', title: 'Fleetdeck', message: `Fleetdeck's window stopped ${crashes.length} times in a minute`, detail: `${detail}\nReload it once more, or quit and report the problem.`, buttons: ['Reload', 'Quit'], defaultId: 1, cancelId: 1 }).then((choice) => {
      if (choice === 0) reload();
      else if (!win.isDestroyed()) win.close();
    });
  });

  let waiting: AbortController | undefined;
  win.on('unresponsive', () => {
    if (waiting || win.isDestroyed()) return;
    d.log("the window's page is not responding");
    waiting = new AbortController();
    void d.dialog
      .showMessageBox(win as BrowserWindow, { type: 'warning', title: 'Fleetdeck', message: "Fleetdeck's window is not responding", detail: 'Wait for it, or reload the page (the fleet and any change in progress run outside it and continue).', buttons: ['Wait', 'Reload'], defaultId: 0, cancelId: 0, signal: waiting.signal })
      .then(
        (r) => {
          waiting = undefined;
          // Reloading a hung page needs its process ended first; render-process-gone then reloads it.
          if (r.response === 1 && !win.isDestroyed()) {
            endedByChoice = true;
            win.webContents.forcefullyCrashRenderer();
          }
        },
        () => (waiting = undefined),
      );
  });
  win.on('responsive', () => {
    waiting?.abort();
    waiting = undefined;
  });
}

/** Chromium's helper processes whose loss the admin is told about (the GPU one restarts by itself). */
const REPORTED_REASONS = new Set(['crashed', 'oom', 'launch-failed', 'integrity-failure', 'abnormal-exit']);

/**
 * Logs every helper process (GPU, network, utility) that ended abnormally, and tells the admin once
 * per process type and run: Chromium restarts them, but a display glitch or a failed download then
 * has an explanation. An `integrity-failure` means the installed files were changed.
 */
export function childProcessGoneReporter(d: Pick<RecoveryDeps, 'dialog' | 'log'>, parent: () => BrowserWindow | undefined): (details: { type: string; reason: string; exitCode: number; name?: string; serviceName?: string }) => void {
  const told = new Set<string>();
  return (details) => {
    if (!REPORTED_REASONS.has(details.reason)) return;
    const what = details.name ?? details.serviceName ?? details.type;
    d.log(`helper process ${what} stopped (${details.reason}, exit code ${details.exitCode})`);
    if (told.has(details.type)) return;
    told.add(details.type);
    const options: MessageBoxOptions = {
      type: details.reason === 'integrity-failure' ? 'error' : 'warning',
      title: 'Fleetdeck',
      message: `A Fleetdeck helper process (${what}) stopped`,
      detail:
        details.reason === 'integrity-failure'
          ? "Its files failed Chromium's integrity check: Fleetdeck's installed files were changed. Reinstall Fleetdeck."
          : `Reason: ${details.reason}. Fleetdeck restarts it; if the window misbehaves, quit and start Fleetdeck again.`,
      buttons: ['OK'],
    };
    const win = parent();
    void (win && !win.isDestroyed() ? d.dialog.showMessageBox(win, options) : d.dialog.showMessageBox(options)).catch(() => undefined);
  };
}
