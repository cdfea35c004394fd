import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import AddSiteDialog from '../../../renderer/components/AddSiteDialog.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { fakeApi, settle, site } from './support/fake-api.js';
import { ipcError, sent, withChannels, type Handlers } from './support/channels.js';
import { renderComponent } from './support/render.js';

const SHA = 'ab'.repeat(32);
const PRESENTED = { sha256: SHA, subject: 'CN=127.0.0.1', issuer: 'CN=127.0.0.1', validFrom: 'Jan 1 2026', validTo: 'Jan 1 2027' };


async function render(handlers: Handlers) {
  const fake = fakeApi({ sites: [] });
  setApi(withChannels(fake, handlers));
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  let closed = 0;
  renderComponent(AddSiteDialog, { fleet, onclose: () => closed++ });
  await settle();
  return { fake, closed: () => closed };
}

const byId = <T extends HTMLElement>(testid: string): T => {
  const el = document.querySelector<T>(`[data-testid="${testid}"]`);
  if (!el) throw new Error(`no ${testid}`);
  return el;
};
function type(testid: string, text: string): void {
  const el = byId<HTMLInputElement>(testid);
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

describe('adding a site', () => {
  it('names what is missing before contacting anything', async () => {
    const { fake } = await render({});
    type('site-url', 'http://storage.example.com');
    byId('site-next').click();
    await settle();
    const dialog = byId('add-site-dialog');
    expect(dialog.textContent).toContain('Give the site a name.');
    expect(dialog.textContent).toContain('Plain http to another host sends the password unencrypted');
    expect(sent(fake, 'sites:probe')).toEqual([]);
    expect(sent(fake, 'sites:add')).toEqual([]);
  });

  it('shows the certificate fingerprint and adds the site only once it is confirmed, pinning what was shown', async () => {
    const added = site('dc-new', 'dc-new');
    const { fake, closed } = await render({
      'sites:probe': () => PRESENTED,
      'sites:add': () => added,
      'sites:list': () => [added],
      'fleet:refresh': () => [],
    });
    type('site-name', 'dc-new');
    type('site-url', 'https://127.0.0.1:8443');
    type('site-user', 'admin');
    type('site-password', 'pa55word!');
    byId('site-next').click();
    await settle();
    expect(sent(fake, 'sites:probe')).toEqual([{ baseUrl: 'https://127.0.0.1:8443' }]);
    expect(byId('site-fingerprint').textContent).toBe(`${'AB:'.repeat(31)}AB`);
    const add = byId<HTMLButtonElement>('site-add');
    expect(add.disabled).toBe(true);
    const confirm = byId<HTMLInputElement>('site-trust-confirm');
    confirm.click();
    flushSync();
    expect(add.disabled).toBe(false);
    add.click();
    await settle();
    expect(sent(fake, 'sites:add')).toEqual([{ name: 'dc-new', baseUrl: 'https://127.0.0.1:8443', username: 'admin', password: 'pa55word!', trustSha256: SHA }]);
    expect(sent(fake, 'fleet:refresh')).toEqual([{ sites: ['dc-new'] }]);
    expect(closed()).toBe(1);
  });

  it("shows main's refusal clearly and does not keep the password", async () => {
    await render({
      'sites:probe': () => PRESENTED,
      'sites:add': () => {
        throw ipcError('certificate', 'https://127.0.0.1:8443 presents cdcd…, not the fingerprint given');
      },
    });
    type('site-name', 'dc-new');
    type('site-url', 'https://127.0.0.1:8443');
    type('site-password', 'pa55word!');
    byId('site-next').click();
    await settle();
    byId<HTMLInputElement>('site-trust-confirm').click();
    flushSync();
    byId('site-add').click();
    await settle();
    const error = byId('add-site-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('not the fingerprint given');
    expect(error.textContent).toContain('The password was cleared: go back and type it again.');
    expect(document.body.innerHTML).not.toContain('pa55word!');
  });

  it('says why a probe failed, with the URL', async () => {
    await render({
      'sites:probe': () => {
        throw ipcError('unreachable', 'connect ECONNREFUSED 127.0.0.1:1');
      },
    });
    type('site-name', 'x');
    type('site-url', 'https://127.0.0.1:1');
    byId('site-next').click();
    await settle();
    expect(byId('add-site-error').textContent).toBe('Could not read the certificate of https://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('adds a plain-http site to another host only when the admin opts in', async () => {
    const added = site('lab', 'lab');
    const { fake } = await render({ 'sites:add': () => added, 'sites:list': () => [added], 'fleet:refresh': () => [] });
    type('site-name', 'lab');
    type('site-url', 'http://lab.example.com:8080');
    byId('site-next').click();
    await settle();
    expect(sent(fake, 'sites:add')).toEqual([]);
    byId<HTMLInputElement>('site-allow-http').click();
    flushSync();
    byId('site-next').click();
    await settle();
    expect(sent(fake, 'sites:probe')).toEqual([]);
    expect(sent(fake, 'sites:add')).toEqual([{ name: 'lab', baseUrl: 'http://lab.example.com:8080', username: 'admin', allowHttp: true }]);
  });
});
