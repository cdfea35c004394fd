import { describe, expect, it } from 'vitest';
import { unsandboxedReason } from '../../../../main/electron/sandbox-check.js';

const none = (): boolean => false;

describe('refusing to run without the sandbox', () => {
  it('passes a normal start', () => {
    expect(unsandboxedReason(['/opt/Fleetdeck/fleetdeck', '--site', 'Paris'], {}, none)).toBeUndefined();
  });

  it("names the AppImage's AppRun fallback and the way out when it added --no-sandbox", () => {
    const reason = unsandboxedReason(['/tmp/.mount_FleetdX/fleetdeck', '--no-sandbox'], { APPIMAGE: '/home/a/Fleetdeck.AppImage' }, none);
    expect(reason).toMatch(/--no-sandbox/);
    expect(reason).toMatch(/AppArmor profile/);
    expect(reason).toMatch(/\.deb/);
  });

  it('refuses a switch Chromium saw (also when not in argv), and ELECTRON_DISABLE_SANDBOX', () => {
    expect(unsandboxedReason(['fleetdeck'], {}, (name) => name === 'disable-gpu-sandbox')).toMatch(/--disable-gpu-sandbox/);
    expect(unsandboxedReason(['fleetdeck'], { ELECTRON_DISABLE_SANDBOX: '1' }, none)).toMatch(/ELECTRON_DISABLE_SANDBOX/);
  });
});
