import { describe, expect, it } from 'vitest';
import type { SiteImportNotice as Notice } from '../../../app/domain/site.js';
import SiteImportNotice from '../../../renderer/components/SiteImportNotice.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { fakeApi, settle } from './support/fake-api.js';
import { ipcError, sent, withChannels, type Handlers } from './support/channels.js';
import { renderComponent } from './support/render.js';

const IMPORTED: Notice = { kind: 'imported', file: '/data/sites.json', sites: 3, renamedTo: 'sites.json.imported-20260304T050607Z', message: '3 sites were imported from /data/sites.json (renamed to sites.json.imported-20260304T050607Z).' };

async function render(notice: Notice | undefined, handlers: Handlers = {}) {
  const fake = fakeApi({ sites: [] });
  setApi(withChannels(fake, { 'app:info': () => ({ version: '1', simulated: false, keychain: 'memory', ...(notice ? { siteImport: notice } : {}) }), ...handlers }));
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  renderComponent(SiteImportNotice, { fleet });
  await settle();
  return { fake, fleet };
}
const notice = (): HTMLElement | null => document.querySelector('[data-testid="site-import-notice"]');

describe('the sites.json import notice', () => {
  it('tells what was imported as a status, and asks main to forget it when dismissed', async () => {
    const { fake, fleet } = await render(IMPORTED, { 'notices:dismiss': () => ({ ok: true }) });
    expect(notice()?.getAttribute('role')).toBe('status');
    expect(notice()?.textContent).toContain(IMPORTED.message);
    document.querySelector<HTMLButtonElement>('[data-testid="site-import-dismiss"]')?.click();
    await settle();
    expect(sent(fake, 'notices:dismiss')).toEqual([{ notice: 'site-import' }]);
    expect(notice()).toBeNull();
    expect(fleet.info?.siteImport).toBeUndefined();
  });

  it('keeps the notice, saying why, when main could not record the dismissal', async () => {
    await render({ kind: 'not-imported', file: '/data/sites.json', message: 'The sites of an earlier Fleetdeck were not imported: /data/sites.json is not valid JSON.' }, {
      'notices:dismiss': () => {
        throw ipcError('store', 'cannot save the site list');
      },
    });
    document.querySelector<HTMLButtonElement>('[data-testid="site-import-dismiss"]')?.click();
    await settle();
    expect(notice()?.textContent).toContain('is not valid JSON');
    expect(notice()?.querySelector('[role="alert"]')?.textContent).toContain('cannot save the site list');
  });

  it('shows nothing when there was nothing to import', async () => {
    await render(undefined);
    expect(notice()).toBeNull();
  });
});
