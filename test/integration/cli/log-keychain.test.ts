// `fleetdeck log` reads the action log only: it signs in to no system, so it never asks the keychain
// and never warns that there is none (this machine's, or a CI runner's without scripts/with-keyring).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFleetdeck } from '../../support/run-cli.js';

describe('fleetdeck log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints no keychain warning, whatever the keychain', async () => {
    // Not FLEETDECK_KEYCHAIN=memory: the command runs as an admin runs it.
    const env = { FLEETDECK_KEYCHAIN: '' };
    for (const args of [['log'], ['log', 'verify']]) {
      const r = await runFleetdeck([...args, '--data-dir', dir], { env, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/keychain/i);
    }
  });
});
