import { claimShellToken, clearShellToken, firstReadsAnswered, startFirstReads } from './lib/api.js';
import { answersOrDeadline } from './lib/first-answers.js';
import { warmFormats } from './lib/locale-formats.js';
import { keepEarlyKeys } from './lib/early-keys.js';
import { isPaletteShortcut } from './lib/shortcuts.js';
import './styles/theme.css';

// The first script holds only the transport: the first frame's reads leave with the browser shell's
// token while the frame's own script (index.html's modulepreload) is evaluated and mounted. Then, in
// the same task, the token leaves the address bar.
claimShellToken(window, { clear: false });
startFirstReads();
clearShellToken(window);
// The frame is shown once their answers are in (renderer/frame.ts), so the first frame painted is the
// one with the fleet. Late answers (FIRST_ANSWERS_WAIT_MS) are not waited for: the frame then says
// "reading…" until they come, as a failed one shows its error.
const answers = answersOrDeadline(firstReadsAnswered());
// A shortcut pressed while the window opens (Ctrl+K) is kept and handed to the frame once mounted.
const earlyKeys = keepEarlyKeys(window, isPaletteShortcut);

const frame = import('./frame.js');
// The locale objects the frame orders its names and writes its figures with are built now, while its
// script loads and main answers, rather than inside the frame's mount, on the path to its paint.
warmFormats();
frame.then(
  ({ mountFrame }) => {
    // A module script runs once the document is parsed, and the stylesheet is inlined in it.
    const target = document.getElementById('app');
    if (!target) throw new Error('index.html has no #app element');
    mountFrame(target, answers);
    earlyKeys.replay();
  },
  (err: unknown) => {
    earlyKeys.stop();
    // Without its frame the window would stay blank: say so, in the page.
    const target = document.getElementById('app') ?? document.documentElement;
    target.setAttribute('role', 'alert');
    target.textContent = `Fleetdeck could not load this window's script (${err instanceof Error ? err.message : String(err)}): start Fleetdeck again.`;
  },
);
