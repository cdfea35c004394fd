import { claimShellToken, clearShellToken, firstReadsAnswered, startFirstReads } from './lib/api.js';
import { answersOrDeadline, pageReady } from './lib/page-ready.js';
import { buildFirstFormats, warmFormats } from './lib/locale-formats.js';
import './styles/theme.css';

if (typeof document === 'undefined') {
  // Started as that worker: build the locale objects (their data stays in the process) and end.
  buildFirstFormats();
  close();
} else {
  start();
}

/** The window's entry: its first reads, then its frame. */
function start(): void {
  // The browser shell's token is taken from the address into this page's memory; the first frame's
  // reads leave with it, so main answers them while the frame's own script (fetched alongside this one,
  // index.html's modulepreload) is evaluated and mounted: the first script holds only the transport,
  // and runs as soon as it has arrived (`async`: not after the stylesheet, issue 17). Then, in the same
  // task (no other script runs in between), the token leaves the address bar.
  claimShellToken(window, { clear: false });
  startFirstReads();
  clearShellToken(window);
  // Then the locale data the frame's names and figures need starts loading on a worker running this
  // very script (locale-formats.ts `warmFormats`: it is in the HTTP cache, so no request waits for
  // main), not on this thread before the frame's script is evaluated. Not with Vite's dev server,
  // whose modules (the stylesheet's) need a document.
  if (!import.meta.env.DEV) warmFormats(import.meta.url);
  // The frame is shown once their answers are in (renderer/frame.ts), so the first frame the browser
  // lays out and paints is the one with the fleet. Answers that are late (FIRST_ANSWERS_WAIT_MS) are not
  // waited for: the frame then shows "reading…" until they come, as a failed one shows its error.
  const answers = answersOrDeadline(firstReadsAnswered());

  Promise.all([pageReady(), import('./frame.js')]).then(
    ([target, { mountFrame }]) => mountFrame(target, answers),
    (err: unknown) => {
      // Without its frame the window would stay blank: say so, in the page.
      const target = document.getElementById('app') ?? document.documentElement;
      target.setAttribute('role', 'alert');
      target.textContent = `Fleetdeck could not load this window's script (${err instanceof Error ? err.message : String(err)}): start Fleetdeck again.`;
    },
  );
}
