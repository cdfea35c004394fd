import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Response, SiteView, SystemStatusView } from '../../../app/ipc/contract.js';
import App from '../../../renderer/App.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { deferred, ipcError, sent, withChannels, type Handlers } from './support/channels.js';
import { fakeApi, settle, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

const PINNED = 'a1'.repeat(32);
// Differs from the pin in its first and last pair only.
const PRESENTED = `ff${'a1'.repeat(30)}ee`;
const OTHER = 'b2'.repeat(32);



async function render(sites: SiteView[], statuses: SystemStatusView[], handlers: Handlers = {}) {
  const fake = fakeApi({ sites, statuses });
  setApi(withChannels(fake, handlers));
  renderComponent(App);
  await settle();
  const q = <T extends Element = HTMLElement>(testid: string): T | null => document.querySelector<T>(`[data-testid="${testid}"]`);
  return { fake, q };
}

function type(input: Element | null, text: string): void {
  const el = input as HTMLInputElement;
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

function click(el: Element | null): void {
  (el as HTMLElement).click();
  flushSync();
}

describe('the login dialog', () => {
  it('asks for a password only, sends it once, and clears it before the answer arrives', async () => {
    const login = deferred<Response<'session:login'>>();
    let siteError: string | undefined = 'East DC: no password stored; log in to this site';
    const e1 = status('east', 'e-1', 'login-required', { lastError: 'East DC: no password stored; log in to this site' });
    const { fake, q } = await render([site('east', 'East DC')], [e1], {
      'session:login': () => {
        siteError = undefined;
        return login.promise;
      },
      'fleet:status': () => [{ siteId: 'east', ...(siteError ? { error: siteError } : {}), systems: [siteError ? e1 : status('east', 'e-1', 'ok')] }],
      'fleet:refresh': () => [status('east', 'e-1', 'ok')],
    });
    click(q('attention-login-east'));
    expect(q('login-dialog')).not.toBeNull();
    expect(q('login-reason')?.textContent).toContain('no password stored');
    expect(q('login-code')).toBeNull();

    type(q('login-password'), 'correct horse battery');
    click(q('login-submit'));
    expect(sent(fake, 'session:login')).toEqual([{ site: 'east', password: 'correct horse battery' }]);
    // Gone from the form while the login is still in flight.
    expect(q<HTMLInputElement>('login-password')?.value).toBe('');
    expect((q('login-submit') as HTMLButtonElement).disabled).toBe(true);

    login.resolve({ ok: true, loggedIn: ['e-1'], needCode: [] });
    await settle();
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['east'] }]);
    expect(q('login-dialog')).toBeNull();
    // Neither the systems' nor the site's own error from before the login lingers.
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    expect(q('site-east')?.textContent).not.toContain('no password stored');
    expect(q('site-attention')).toBeNull();
    // The password went to session:login and nowhere else.
    const elsewhere = fake.invocations.filter((i) => i.channel !== 'session:login');
    expect(JSON.stringify(elsewhere)).not.toContain('correct horse');
  });

  it('asks for a 6-digit code when the system says two-factor is on', async () => {
    const { fake, q } = await render([site('east', 'East DC')], [status('east', 'e-1', 'login-required', { lastError: 'East DC: two-factor authentication is on: a code is required' })], {
      'session:login': () => ({ ok: true, loggedIn: ['e-1'], needCode: [] }),
    });
    click(q('attention-login-east'));
    const code = q<HTMLInputElement>('login-code') as HTMLInputElement;
    expect(code).not.toBeNull();
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    type(code, '12345');
    click(q('login-submit'));
    expect(q('login-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('6-digit');
    expect(sent(fake, 'session:login')).toEqual([]);

    // No new password: the stored one is used, with the code.
    type(code, '123456');
    click(q('login-submit'));
    await settle();
    expect(sent(fake, 'session:login')).toEqual([{ site: 'east', code: '123456' }]);
    expect(q('login-dialog')).toBeNull();
  });

  it('shows the code field after a login refused for want of a code, with the password already cleared', async () => {
    let calls = 0;
    const { fake, q } = await render([site('east', 'East DC')], [status('east', 'e-1', 'login-required', { lastError: 'East DC: login refused (Invalid credentials)' })], {
      'session:login': () => {
        calls++;
        if (calls === 1) throw ipcError('login-required', 'East DC: two-factor authentication is on: a code is required');
        return { ok: true, loggedIn: ['e-1'], needCode: [] };
      },
    });
    click(q('attention-login-east'));
    expect(q('login-code')).toBeNull();
    type(q('login-password'), 's3cret-pass');
    click(q('login-submit'));
    await settle();

    expect(q('login-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('two-factor');
    expect(q<HTMLInputElement>('login-password')?.value).toBe('');
    expect(q('login-code')).not.toBeNull();

    type(q('login-password'), 's3cret-pass');
    type(q('login-code'), '654321');
    click(q('login-submit'));
    await settle();
    expect(sent(fake, 'session:login')).toEqual([
      { site: 'east', password: 's3cret-pass' },
      { site: 'east', password: 's3cret-pass', code: '654321' },
    ]);
    expect(q('login-dialog')).toBeNull();
  });

  it('does not ask for a code when a refusal is about something else', async () => {
    const { q } = await render([site('east', 'East DC')], [status('east', 'e-1', 'login-required', { lastError: 'logged out' })], {
      'session:login': () => {
        throw ipcError('login-required', 'East DC: login refused (Invalid username or password)');
      },
    });
    click(q('attention-login-east'));
    type(q('login-password'), 'wrong');
    click(q('login-submit'));
    await settle();
    expect(q('login-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('Invalid username or password');
    expect(q('login-code')).toBeNull();
    expect(q<HTMLInputElement>('login-password')?.value).toBe('');
  });

  it('takes a code anyway when the system asks for one in words not recognised', async () => {
    const { fake, q } = await render([site('east', 'East DC')], [status('east', 'e-1', 'login-required', { lastError: 'East DC: login refused (Token de seguridad requerido)' })], {
      'session:login': () => ({ ok: true, loggedIn: ['e-1'], needCode: [] }),
    });
    click(q('attention-login-east'));
    expect(q('login-code')).toBeNull();
    click(q('login-use-code'));
    type(q('login-code'), '424242');
    click(q('login-submit'));
    await settle();
    expect(sent(fake, 'session:login')).toEqual([{ site: 'east', code: '424242' }]);
  });
});

describe('the login dialog with one-time codes', () => {
  it('asks for a code of its own for each system still waiting, one after the other, then refreshes', async () => {
    const waiting = ['e-1', 'e-2', 'e-3'].map((system) => status('east', system, 'login-required', { lastError: 'East DC: two-factor authentication is on: a code is required (MFA required)' }));
    const answers = [
      { ok: true as const, loggedIn: ['e-1'], needCode: ['e-2', 'e-3'] },
      { ok: true as const, loggedIn: ['e-2'], needCode: [] },
      { ok: true as const, loggedIn: ['e-3'], needCode: [] },
    ];
    const { fake, q } = await render([site('east', 'East DC')], waiting, {
      'session:login': () => answers.shift()!,
      'fleet:refresh': () => ['e-1', 'e-2', 'e-3'].map((system) => status('east', system, 'ok')),
    });
    click(q('attention-login-east'));
    type(q('login-code'), '111111');
    click(q('login-submit'));
    await settle();
    // Still open: e-2 needs a code of its own, and the field is empty for it.
    expect(q('login-dialog')).not.toBeNull();
    expect(q('login-next')?.textContent).toMatch(/Logged in: e-1\.\s+e-2 needs a code of its own \(then e-3\): a code is accepted once/);
    expect(q<HTMLInputElement>('login-code')?.value).toBe('');
    expect(q('login-password')).toBeNull();
    expect(document.querySelector('label[for$="-code"]')?.textContent).toBe('Two-factor code for e-2');
    type(q('login-code'), '222222');
    click(q('login-submit'));
    await settle();
    expect(q('login-next')?.textContent).toContain('e-3 needs a code of its own');
    type(q('login-code'), '333333');
    click(q('login-submit'));
    await settle();
    expect(sent(fake, 'session:login')).toEqual([
      { site: 'east', code: '111111' },
      { site: 'east', code: '222222', system: 'e-2' },
      { site: 'east', code: '333333', system: 'e-3' },
    ]);
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['east'] }]);
    expect(q('login-dialog')).toBeNull();
  });

  it('keeps asking for the same system when its code is refused, and "Later" refreshes what was logged in', async () => {
    let calls = 0;
    const { fake, q } = await render([site('east', 'East DC')], [status('east', 'e-1', 'login-required', { lastError: 'East DC: two-factor authentication is on: a code is required' })], {
      'session:login': () => {
        calls++;
        if (calls === 1) return { ok: true, loggedIn: ['e-1'], needCode: ['e-2'] };
        throw ipcError('login-required', 'East DC/e-2: the two-factor code was refused (Invalid verification code.); a code is accepted once: use the next one your authenticator shows');
      },
      'fleet:refresh': () => [status('east', 'e-1', 'ok')],
    });
    click(q('attention-login-east'));
    type(q('login-code'), '111111');
    click(q('login-submit'));
    await settle();
    type(q('login-code'), '111111');
    click(q('login-submit'));
    await settle();
    expect(q('login-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('a code is accepted once');
    expect(q('login-next')?.textContent).toContain('e-2 needs a code of its own');
    expect(q('login-cancel')?.textContent).toBe('Later');
    click(q('login-cancel'));
    await settle();
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['east'] }]);
    expect(q('login-dialog')).toBeNull();
  });
});

describe('what a site says about how it is reached', () => {
  it('shows an expired pinned certificate in the fleet tree and the site manager, and a bare token scheme', async () => {
    const expiredSince = '2025-03-01T12:00:00.000Z';
    const { q } = await render(
      [site('west', 'West DC', { tls: { pinSha256: PINNED, hasCaBundle: false, validTo: expiredSince, expiredSince }, auth: { tokenScheme: 'raw', learnedAt: '2026-01-15T10:00:00.000Z' } })],
      [status('west', 'w-1', 'ok')],
    );
    const pill = q('tree-cert-expired-west');
    expect(pill?.textContent).toBe('cert expired');
    expect(pill?.getAttribute('title')).toBe('Certificate expired since 2025-03-01 12:00 UTC: still trusted by its pinned fingerprint');
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    expect(q('site-notice-certificate-expired-west')?.textContent).toBe(
      'West DC: certificate expired since 2025-03-01 12:00 UTC: still trusted by its pinned fingerprint; renew it on the system, then trust the new one.',
    );
    expect(q('site-notice-token-scheme-west')?.textContent).toContain('session token sent without "Bearer " since 2026-01-15 10:00 UTC');
  });

  it('says nothing of the kind for a valid certificate', async () => {
    const { q } = await render([site('west', 'West DC', { tls: { pinSha256: PINNED, hasCaBundle: false, validTo: '2099-01-01T00:00:00.000Z' } })], [status('west', 'w-1', 'ok')]);
    expect(q('tree-cert-expired-west')).toBeNull();
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    expect(q('site-notice-certificate-expired-west')).toBeNull();
    expect(q('site-west')?.textContent).toContain('valid until 2099-01-01 00:00 UTC');
  });
});

describe('the certificate-changed dialog', () => {
  it('shows both fingerprints as colon-separated pairs and trusts the new one only once confirmed', async () => {
    const { fake, q } = await render(
      [site('west', 'West DC', { tls: { pinSha256: PINNED, hasCaBundle: false } })],
      [status('west', 'w-1', 'certificate-changed', { lastError: "the site's certificate changed" })],
      {
        'sites:probe': () => ({ sha256: PRESENTED, subject: 'CN=127.0.0.1', issuer: 'CN=127.0.0.1', validFrom: 'Jan  1 00:00:00 2026 GMT', validTo: 'Jan  1 00:00:00 2027 GMT' }),
        'sites:trust': (r) => ({ sha256: r.sha256 }),
      },
    );
    click(q('attention-trust-west'));
    await settle();
    expect(sent(fake, 'sites:probe')).toEqual([{ baseUrl: 'https://west.example:8443' }]);
    expect(q('pinned-fingerprint')?.textContent).toBe(`${Array(32).fill('A1').join(':')}`);
    expect(q('presented-fingerprint')?.textContent).toBe(['FF', ...Array(30).fill('A1'), 'EE'].join(':'));
    expect([...(q('presented-fingerprint') as HTMLElement).querySelectorAll('.diff')].map((e) => e.textContent)).toEqual(['FF', 'EE']);

    const submit = q('trust-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    submit.closest('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await settle();
    expect(sent(fake, 'sites:trust')).toEqual([]);

    click(q('trust-confirm'));
    expect(submit.disabled).toBe(false);
    click(submit);
    await settle();
    expect(sent(fake, 'sites:trust')).toEqual([{ site: 'west', sha256: PRESENTED }]);
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['west'] }]);
    expect(q('trust-dialog')).toBeNull();
  });

  it('needs a new confirmation when a second reading presents another certificate, and trusts that one', async () => {
    let reading = 0;
    const { fake, q } = await render(
      [site('west', 'West DC', { tls: { pinSha256: PINNED, hasCaBundle: false } })],
      [status('west', 'w-1', 'certificate-changed')],
      {
        'sites:probe': () => ({ sha256: ++reading === 1 ? PRESENTED : OTHER, subject: 'CN=x', issuer: 'CN=x', validFrom: '', validTo: '' }),
        'sites:trust': (r) => ({ sha256: r.sha256 }),
      },
    );
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-trust-west'));
    await settle();
    click(q('trust-confirm'));
    click([...(q('trust-dialog') as HTMLElement).querySelectorAll('button')].find((b) => b.textContent === 'Read again') as HTMLElement);
    await settle();
    expect(q('presented-fingerprint')?.textContent).toBe(Array(32).fill('B2').join(':'));
    expect(q<HTMLInputElement>('trust-confirm')?.checked).toBe(false);
    expect((q('trust-submit') as HTMLButtonElement).disabled).toBe(true);

    click(q('trust-confirm'));
    click(q('trust-submit'));
    await settle();
    expect(sent(fake, 'sites:trust')).toEqual([{ site: 'west', sha256: OTHER }]);
  });

  it('keeps the dialog open with the reason when main refuses to trust', async () => {
    const { q } = await render([site('west', 'West DC', { tls: { pinSha256: PINNED, hasCaBundle: false } })], [status('west', 'w-1', 'certificate-changed')], {
      'sites:probe': () => ({ sha256: PRESENTED, subject: 'CN=x', issuer: 'CN=x', validFrom: '', validTo: '' }),
      'sites:trust': () => {
        throw ipcError('certificate', `West DC presents ${OTHER}, not the fingerprint given`);
      },
    });
    click(q('attention-trust-west'));
    await settle();
    click(q('trust-confirm'));
    click(q('trust-submit'));
    await settle();
    expect(q('trust-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('not the fingerprint given');
  });
});

describe('managing a site', () => {
  const sites = () => [site('east', 'East DC', { group: 'Europe', tags: ['prod'] }), site('west', 'West DC')];
  const statuses = () => [status('east', 'e-1', 'ok'), status('west', 'w-1', 'login-required')];

  it('removes a site only after its exact name is typed, and forgets its systems', async () => {
    const { fake, q } = await render(sites(), statuses(), { 'sites:remove': () => ({ ok: true }) });
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-remove-west'));
    const submit = q('confirm-submit') as HTMLButtonElement;
    expect(q('confirm-dialog')?.textContent).toContain('keychain');
    expect(submit.disabled).toBe(true);

    type(q('confirm-input'), 'west dc');
    expect(submit.disabled).toBe(true);
    submit.closest('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await settle();
    expect(sent(fake, 'sites:remove')).toEqual([]);

    type(q('confirm-input'), 'West DC');
    expect(submit.disabled).toBe(false);
    click(submit);
    await settle();
    expect(sent(fake, 'sites:remove')).toEqual([{ site: 'west' }]);
    expect(q('confirm-dialog')).toBeNull();
    expect(q('site-west')).toBeNull();
    expect(q('tree-site-west')).toBeNull();
    // Its login prompt goes with it.
    expect(q('attention-login-west')).toBeNull();
    expect(q('site-east')).not.toBeNull();
    // Nor does any fleet-wide view keep its systems.
    click(document.querySelector('.brand'));
    await settle();
    expect(q('overview-row-east-e-1')).not.toBeNull();
    expect(q('overview-row-west-w-1')).toBeNull();
  });

  it('sends only the fields that changed when a site is edited', async () => {
    const { fake, q } = await render(sites(), statuses(), {
      'sites:edit': (r) => ({ ...site('east', 'East DC', { group: 'Europe', tags: ['prod'] }), tags: r.patch.tags ?? [], polling: { intervalSeconds: r.patch.intervalSeconds ?? 60, paused: false, maxInFlight: 4 } }),
    });
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-edit-east'));
    expect(q<HTMLInputElement>('site-name')?.value).toBe('East DC');
    type(q('site-tags'), 'prod, dr , prod,');
    type(q('site-interval'), '300');
    click(q('site-save'));
    await settle();
    expect(sent(fake, 'sites:edit')).toEqual([{ site: 'east', patch: { tags: ['prod', 'dr'], intervalSeconds: 300 } }]);
    expect(q('site-edit-dialog')).toBeNull();
    expect(q('site-east')?.textContent).toContain('prod, dr');
    expect(q('site-east')?.textContent).toContain('every 300 s');
  });

  it('edits the SMART age of background polls: 24 h shown when unset, only a change sent, bounds refused', async () => {
    const { fake, q } = await render(sites(), statuses(), {
      'sites:edit': (r) => ({ ...site('east', 'East DC'), polling: { intervalSeconds: 60, paused: false, maxInFlight: 4, ...(r.patch.smartMaxAgeHours ? { smartMaxAgeHours: r.patch.smartMaxAgeHours } : {}) } }),
    });
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-edit-east'));
    expect(q<HTMLInputElement>('site-smart-age')?.value).toBe('24');
    type(q('site-smart-age'), '0');
    click(q('site-save'));
    expect(q('site-edit-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('SMART age');
    expect(sent(fake, 'sites:edit')).toEqual([]);
    type(q('site-smart-age'), '6');
    click(q('site-save'));
    await settle();
    expect(sent(fake, 'sites:edit')).toEqual([{ site: 'east', patch: { smartMaxAgeHours: 6 } }]);
  });

  it('refuses an edit that breaks a limit, saying which', async () => {
    const { fake, q } = await render(sites(), statuses(), { 'sites:edit': () => site('east', 'East DC') });
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-edit-east'));
    type(q('site-inflight'), '65');
    click(q('site-save'));
    expect(q('site-edit-dialog')?.querySelector('[role="alert"]')?.textContent).toContain('1 to 64');
    expect(sent(fake, 'sites:edit')).toEqual([]);
  });

  it('pauses and resumes polling, and logs out', async () => {
    const paused = site('east', 'East DC', { polling: { intervalSeconds: 60, paused: true, maxInFlight: 4 } });
    let current = sites();
    const { fake, q } = await render(current, statuses(), {
      'sites:pause': (r) => {
        current = [r.paused ? paused : site('east', 'East DC'), site('west', 'West DC')];
        return { ok: true };
      },
      'sites:list': () => current,
      'session:logout': () => ({ ok: true }),
    });
    click(q('open-sites'));
    // The sites view is its own script chunk, loaded when first shown.
    await settle();
    click(q('site-pause-east'));
    await settle();
    expect(sent(fake, 'sites:pause')).toEqual([{ site: 'east', paused: true }]);
    expect(q('site-pause-east')?.textContent?.trim()).toBe('Resume polling');

    click(q('site-pause-east'));
    await settle();
    expect(sent(fake, 'sites:pause')[1]).toEqual({ site: 'east', paused: false });
    // A resumed site is read at once.
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['east'] }]);
    expect(q('site-pause-east')?.textContent?.trim()).toBe('Pause polling');

    click(q('site-logout-west'));
    await settle();
    expect(sent(fake, 'session:logout')).toEqual([{ site: 'west' }]);
  });
});
