import { claimShellToken, startFirstReads } from './lib/api.js';
import { warmFormats } from './lib/locale-formats.js';
import './styles/theme.css';

// First of all: the browser shell's token leaves the address bar for this page's memory.
claimShellToken();
// Then the first frame's reads leave, so main answers them while the frame's own script (fetched
// alongside this one, index.html's modulepreload) is evaluated and mounted: the first script holds
// only the transport (issue 17).
startFirstReads();
warmFormats();

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
import('./frame.js').then(
  ({ mountFrame }) => mountFrame(target),
  (err: unknown) => {
    // Without its frame the window would stay blank: say so, in the page.
    target.setAttribute('role', 'alert');
    target.textContent = `Fleetdeck could not load this window's script (${err instanceof Error ? err.message : String(err)}): start Fleetdeck again.`;
  },
);
