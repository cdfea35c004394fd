import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteStore } from '../../../main/store/site-store.js';
import { runFleetdeck } from '../../support/run-cli.js';

/** `fleetdeck site edit` sets what background polling does: the interval and the SMART age. */
describe('fleetdeck site edit: polling settings', { timeout: 120_000 }, () => {
  let dir: string;
  const cli = (...args: string[]) => runFleetdeck([...args, '--data-dir', dir], { env: { FLEETDECK_KEYCHAIN: 'memory' }, timeoutMs: 60_000 });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-cli-polling-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the interval and the SMART age, and refuses an age below one hour', async () => {
    const add = await cli('site', 'add', 'Lab', '--url', 'http://127.0.0.1:9', '--user', 'admin');
    expect(add.code, add.stderr).toBe(0);
    // Added without an interval: polled at the light default, and the list says how often.
    expect((await cli('site', 'list')).stdout).toContain('(every 300 s)');
    expect((await cli('site', 'edit', 'Lab', '--interval', '0')).code).toBe(0);
    expect((await cli('site', 'list')).stdout).toContain('(on demand)');
    const edit = await cli('site', 'edit', 'Lab', '--interval', '60', '--smart-max-age', '6');
    expect(edit.code, edit.stderr).toBe(0);
    const sites = new SiteStore({ dataDir: dir });
    try {
      expect(sites.get('Lab')?.polling).toMatchObject({ intervalSeconds: 60, smartMaxAgeHours: 6 });
    } finally {
      sites.close();
    }
    const bad = await cli('site', 'edit', 'Lab', '--smart-max-age', '0');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--smart-max-age takes a whole number ≥ 1');
  });
});
