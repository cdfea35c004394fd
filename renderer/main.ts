import { claimShellToken, clearShellToken, firstReadsAnswered, startFirstReads } from './lib/api.js';
import { answersOrDeadline, pageReady } from './lib/page-ready.js';
import { warmFormats } from './lib/locale-formats.js';
import { keepEarlyKeys } from './lib/early-keys.js';
import { isPaletteShortcut } from './lib/shortcuts.js';
import './styles/theme.css';

// The browser shell's token is taken from the address into this page's memory; the first frame's
// reads leave with it, so main answers them while the frame's own script (fetched alongside this one,
// index.html's modulepreload) is evaluated and mounted: the first script holds only the transport,
// and runs as soon as it has arrived (`async`: not after the stylesheet). Then, in the same
// task (no other script runs in between), the token leaves the address bar.
claimShellToken(window, { clear: false });
startFirstReads();
clearShellToken(window);
// The frame is shown once their answers are in (renderer/frame.ts), so the first frame the browser
// lays out and paints is the one with the fleet. Answers that are late (FIRST_ANSWERS_WAIT_MS) are not
// waited for: the frame then shows "reading…" until they come, as a failed one shows its error.
const answers = answersOrDeadline(firstReadsAnswered());
// A shortcut pressed while the window opens (Ctrl+K) is kept and handed to the frame once mounted.
const earlyKeys = keepEarlyKeys(window, isPaletteShortcut);

Promise.all([pageReady(), import('./frame.js')]).then(
  ([target, { mountFrame }]) => {
    mountFrame(target, answers);
    earlyKeys.replay();
    // The locale objects the frame uses with the answers (the name order's collator, the whole-number
    // format; building the first loads the locale data, 15-30 ms) are built now, while the hidden
    // frame waits for main: built in this script before the frame's was evaluated, they delayed its
    // mount; left to first use, they would be built inside the answers' render.
    warmFormats();
  },
  (err: unknown) => {
    earlyKeys.stop();
    // Without its frame the window would stay blank: say so, in the page.
    const target = document.getElementById('app') ?? document.documentElement;
    target.setAttribute('role', 'alert');
    target.textContent = `Fleetdeck could not load this window's script (${err instanceof Error ? err.message : String(err)}): start Fleetdeck again.`;
  },
);
