// Commands that only read the data directory (the action log, alerts, the site and report lists)
// sign in to no system, so they never ask the keychain and never warn that there is none (this
// machine's, or a CI runner's without scripts/with-keyring).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFleetdeck } from '../../support/run-cli.js';

describe('reading commands and the keychain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('print no keychain warning, even where no keychain can be used', async () => {
    // Not FLEETDECK_KEYCHAIN=memory: the command runs as an admin runs it, on a session bus that is
    // not there (as on a server without a desktop), so a command that asked the keychain would warn.
    const env = { FLEETDECK_KEYCHAIN: '', DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`, DISPLAY: '' };
    for (const args of [['log'], ['log', 'verify'], ['alerts'], ['site', 'list'], ['report', 'list']]) {
      const r = await runFleetdeck([...args, '--data-dir', dir], { env, timeoutMs: 60_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/keychain/i);
    }
  });
});
