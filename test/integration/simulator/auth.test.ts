import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, AuthError } from '../../../main/client/index.js';
import type { User } from '../../../app/catalog/resources.js';
import { totp } from '../../../simulator/totp.js';
import { T0, harness, rejection } from './support.js';
import type { Harness } from './support.js';

describe('simulator authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h.close());

  it('logs in with the manifest credentials and refuses wrong ones with 401', async () => {
    const site = h.sim.manifest.sites[0]!;
    const ok = await h.client.login({ Username: site.username, Password: site.password });
    expect(ok).toMatchObject({ Status: 'Ok', UserEmailAddress: 'admin@example.com' });
    expect(ok.SessionToken).toMatch(/^[\w-]{40,}$/);
    const err = await rejection(h.client.login({ Username: site.username, Password: 'wrong' }));
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toBe('Invalid username or password.');
  });

  it('expires a session after its inactivity timeout, and activity keeps it alive', async () => {
    const token = (await h.client.login({ Username: 'admin', Password: 'fleetdeck-demo', InactivityTimeoutInMinutes: 2 })).SessionToken as string;
    h.sim.clock.advance(90);
    await h.call('GET /Version', { token });
    h.sim.clock.advance(90);
    await h.call('GET /Version', { token });
    h.sim.clock.advance(121);
    const err = await rejection(h.call('GET /Version', { token }));
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toMatch(/expired after 2 minutes/);
    // The default timeout is 30 minutes.
    const fresh = (await h.client.login({ Username: 'admin', Password: 'fleetdeck-demo' })).SessionToken as string;
    h.sim.clock.advance(29 * 60);
    await h.call('GET /Version', { token: fresh });
    h.sim.clock.advance(31 * 60);
    await expect(h.call('GET /Version', { token: fresh })).rejects.toThrow(AuthError);
  });

  it('expires every token on request of the control API', async () => {
    const token = await h.login();
    expect(h.sim.control.expireTokens(0)).toBeGreaterThan(0);
    await expect(h.call('GET /Version', { token })).rejects.toThrow(AuthError);
  });

  it('creates, edits and deletes users who log in with their own passwords', async () => {
    const admin = await h.login();
    await h.call('POST /users/create', { token: admin, body: { Name: 'dana', Password: 'dana-pass-1', Role: 'operator', Email: 'dana@example.com' } });
    const list = await h.call<{ Data: User[] }>('GET /users/list', { token: admin, query: { role: 'Operator' } });
    expect(list.Data.map((u) => u.Name)).toContain('dana');
    expect(list.Data.find((u) => u.Name === 'dana')).toEqual({ Name: 'dana', Email: 'dana@example.com', Role: 'Operator', TwoStepAuthenticationEnabled: false });
    const dana = await h.login({ Username: 'DANA', Password: 'dana-pass-1' });
    await h.call('PUT /users/edit', { token: admin, query: { name: 'dana' }, body: { Password: 'dana-pass-2', Role: 'Viewer' } });
    await expect(h.login({ Username: 'dana', Password: 'dana-pass-1' })).rejects.toThrow(AuthError);
    await h.login({ Username: 'dana', Password: 'dana-pass-2' });
    await h.call('DELETE /users/delete', { token: admin, query: { name: 'dana' } });
    await expect(h.call('GET /Version', { token: dana })).rejects.toThrow(AuthError);
    await expect(h.login({ Username: 'dana', Password: 'dana-pass-2' })).rejects.toThrow(AuthError);
  });

  it('refuses bad user input with 400 strings', async () => {
    const admin = await h.login();
    const cases: Array<[unknown, RegExp]> = [
      [{ Name: 'x1', Password: 'short', Role: 'Viewer', Email: 'x@example.com' }, /at least 8/],
      [{ Name: 'x2', Password: 'long-enough', Role: 'Root', Email: 'x@example.com' }, /Invalid Role 'Root'/],
      [{ Name: 'x3', Password: 'long-enough', Role: 'Viewer', Email: 'nope' }, /not a valid e-mail/],
      [{ Name: 'admin', Password: 'long-enough', Role: 'Viewer', Email: 'x@example.com' }, /already exists/],
    ];
    for (const [body, message] of cases) {
      const err = await rejection(h.call('POST /users/create', { token: admin, body }));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.message).toMatch(message);
    }
    await expect(h.call('DELETE /users/delete', { token: admin, query: { name: 'admin' } })).rejects.toThrow(/cannot delete the user you are logged in as/);
  });

  it('enforces roles: Viewer reads only, Operator cannot change users or settings', async () => {
    const viewer = await h.login({ Username: 'auditor', Password: 'fleetdeck-demo' });
    await h.call('GET /hosts/list', { token: viewer });
    await expect(h.call('POST /hosts/create', { token: viewer, body: { Name: 'nope' } })).rejects.toThrow(/role Viewer/);
    const operator = await h.login({ Username: 'operator', Password: 'fleetdeck-demo' });
    await h.call('POST /hosts/create', { token: operator, body: { Name: 'op-host' } });
    await expect(h.call('POST /users/create', { token: operator, body: { Name: 'y', Password: 'long-enough', Role: 'Viewer', Email: 'y@example.com' } })).rejects.toThrow(/role Operator/);
  });

  it('asks for a second factor once two-factor authentication is on, and checks the TOTP code', async () => {
    const admin = await h.login();
    await h.call('PUT /settings/authentication', { token: admin, body: { EnableMultifactorAuthentication: true } });
    try {
      const users = await h.call<{ Data: User[] }>('GET /users/list', { token: admin });
      expect(users.Data.every((u) => u.TwoStepAuthenticationEnabled === true)).toBe(true);
      const pending = await h.client.login({ Username: 'admin', Password: 'fleetdeck-demo' });
      expect(pending.Status).toBe('TwoFactorRequired');
      expect(pending.SessionToken).toBeUndefined();
      const { secret, code } = h.sim.control.totpSecret(0, 'admin');
      expect(code).toBe(totp(secret, h.sim.clock.now()));
      expect(totp(secret, T0)).toMatch(/^\d{6}$/);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      await expect(h.client.login({ Username: 'admin', Password: 'fleetdeck-demo', TwoFactorAuthenticationToken: wrong })).rejects.toThrow(AuthError);
      await expect(h.client.login({ Username: 'admin', Password: 'wrong-pass', TwoFactorAuthenticationToken: code })).rejects.toThrow(AuthError);
      const ok = await h.client.login({ Username: 'admin', Password: 'fleetdeck-demo', TwoFactorAuthenticationToken: code });
      expect(ok.Status).toBe('Ok');
      expect(ok.SessionToken).toBeTruthy();
      // Each user has their own secret.
      expect(h.sim.control.totpSecret(0, 'operator').secret).not.toBe(secret);
    } finally {
      await h.call('PUT /settings/authentication', { token: admin, body: { EnableMultifactorAuthentication: false } });
    }
    expect((await h.client.login({ Username: 'admin', Password: 'fleetdeck-demo' })).Status).toBe('Ok');
  });
});
