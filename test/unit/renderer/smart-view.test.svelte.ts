import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import SmartPanel from '../../../renderer/areas/hardware/SmartPanel.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { SystemContext } from '../../../renderer/lib/system.svelte.js';
import { cacheKey, fakeApi, settle, site, status, type CachedAnswer } from './support/fake-api.js';
import { sasHdd } from '../../support/smart-scsi.js';
import { ataSmart, nvmeSmart } from './support/smart-text.js';
import { renderComponent } from './support/render.js';

const AT = '2025-03-04T05:06:07Z';
let target: HTMLElement | undefined;


async function render(text: string, options: { state?: 'ok' | 'unreachable'; live?: string } = {}) {
  const cache = new Map<string, CachedAnswer>([[cacheKey('s1', 'prod-a', 'GET /resources/drives/smart', { node: 'n1', driveid: 3 }), { value: text, at: AT }]]);
  const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', options.state ?? 'ok')], cache, call: () => options.live });
  setApi(fake.api);
  const fleet = new FleetStore();
  await fleet.load();
  target = renderComponent(SmartPanel, { sys: new SystemContext(fleet, 's1', 'prod-a'), node: 'n1', driveId: 3 }).target;
  await settle();
  return { el: target, fake };
}

const row = (el: HTMLElement, id: number) => el.querySelector<HTMLTableRowElement>(`[data-testid="smart-table"] tr[data-id="${id}"]`);
const field = (el: HTMLElement, label: string) => el.querySelector<HTMLTableRowElement>(`[data-testid="smart-table"] tr[data-field="${label}"]`);

describe('SMART view', () => {
  it('highlights each failure-predicting ATA attribute by its own risk and writes the risk out', async () => {
    const { el } = await render(ataSmart({ 5: 12, 187: 0, 188: 2, 197: 40, 198: 0 }));
    expect(el.querySelector('[data-testid="smart-table"]')?.getAttribute('data-kind')).toBe('ata');
    expect(row(el, 5)?.dataset.risk).toBe('warning');
    expect(row(el, 5)?.className).toContain('risk-warning');
    expect(row(el, 5)?.textContent).toContain('Warning');
    expect(row(el, 188)?.dataset.risk).toBe('warning');
    expect(row(el, 197)?.dataset.risk).toBe('critical');
    expect(row(el, 197)?.textContent).toContain('Critical');
    expect(row(el, 187)?.dataset.risk).toBe('ok');
    expect(row(el, 198)?.dataset.risk).toBe('ok');
    // A non-zero counter outside the watched five is not flagged.
    expect(row(el, 199)?.dataset.risk).toBe('ok');
    for (const id of [5, 187, 188, 197, 198]) expect(row(el, id)?.classList.contains('watched')).toBe(true);
    expect(row(el, 199)?.classList.contains('watched')).toBe(false);
    expect(el.querySelector('[data-testid="smart-risk"]')?.textContent).toBe('Critical');
    expect(el.querySelector('[data-testid="smart-raw"]')?.textContent).toContain('Reallocated_Sector_Ct');
  });

  it('shows the time the cached text was read', async () => {
    const { el } = await render(ataSmart({}));
    expect(el.querySelector('[data-testid="as-of"] time')?.getAttribute('datetime')).toBe(AT);
    expect(el.querySelector('[data-testid="smart-risk"]')?.textContent).toBe('OK');
  });

  it('highlights NVMe health fields: spare under threshold critical, wear ≥ 90 % a warning', async () => {
    const { el } = await render(nvmeSmart({ spare: 5, used: 95, media: 0 }));
    expect(el.querySelector('[data-testid="smart-table"]')?.getAttribute('data-kind')).toBe('nvme');
    expect(field(el, 'Available Spare')?.dataset.risk).toBe('critical');
    expect(field(el, 'Percentage Used')?.dataset.risk).toBe('warning');
    expect(field(el, 'Media and Data Integrity Errors')?.dataset.risk).toBe('ok');
    expect(field(el, 'Critical Warning')?.dataset.risk).toBe('ok');
  });

  it('flags a critical warning bit and media errors', async () => {
    const { el } = await render(nvmeSmart({ critical: '0x04', media: 3 }));
    expect(field(el, 'Critical Warning')?.dataset.risk).toBe('critical');
    expect(field(el, 'Media and Data Integrity Errors')?.dataset.risk).toBe('warning');
  });

  it('shows a SAS drive\'s SCSI fields and error counter log, its grown defects and uncorrected reads critical', async () => {
    const { el } = await render(sasHdd({ grownDefects: 2500, uncorrected: { read: 57 } }));
    expect(el.querySelector('[data-testid="smart-table"]')?.getAttribute('data-kind')).toBe('scsi');
    expect(el.querySelector('[data-testid="smart-risk"]')?.textContent).toBe('Critical');
    expect(field(el, 'Elements in grown defect list')?.dataset.risk).toBe('critical');
    expect(field(el, 'Elements in grown defect list')?.textContent).toContain('2500');
    expect(field(el, 'Current Drive Temperature')?.dataset.risk).toBe('ok');
    const read = el.querySelector<HTMLTableRowElement>('[data-testid="smart-error-counters"] tr[data-operation="read"]');
    expect(read?.dataset.risk).toBe('critical');
    expect(read?.textContent).toContain('57');
    expect(read?.querySelector('.pill')?.getAttribute('title')).toBe('57 uncorrected read errors, at or above 10');
    expect(el.querySelector('[data-testid="smart-error-counters"] tr[data-operation="write"]')?.getAttribute('data-risk')).toBe('ok');
    expect(el.querySelector('[aria-label="SMART findings"]')?.textContent).toContain('Elements in grown defect list');
  });

  it('says Unknown, never OK, for text it cannot read, and opens the raw output', async () => {
    const { el } = await render("Smartctl open device: /dev/sdc failed: DELL or MegaRaid controller, please try adding '-d megaraid,N'");
    expect(el.querySelector('[data-testid="smart-view"]')?.getAttribute('data-risk')).toBe('unknown');
    expect(el.querySelector('[data-testid="smart-risk"]')?.textContent).toBe('Unknown');
    expect(el.querySelector('[data-testid="smart-risk"]')?.className).toContain('tone-muted');
    expect(el.querySelector('[data-testid="smart-unknown"]')?.textContent).toContain('not called OK');
    expect(el.querySelector('details')?.open).toBe(true);
    expect(el.querySelector('[data-testid="smart-raw"]')?.textContent).toContain('MegaRaid');
  });

  it('reads SMART now through op:call and calls a counter that grew since the cache critical', async () => {
    const { el, fake } = await render(ataSmart({ 5: 12 }), { live: ataSmart({ 5: 15 }) });
    expect(row(el, 5)?.dataset.risk).toBe('warning');
    const button = [...el.querySelectorAll('button')].find((b) => b.textContent?.includes('Read now')) as HTMLButtonElement;
    button.click();
    flushSync();
    await settle();
    expect(fake.calls()).toEqual([{ site: 's1', system: 'prod-a', operation: 'GET /resources/drives/smart', query: { node: 'n1', driveid: 3 } }]);
    expect(row(el, 5)?.dataset.risk).toBe('critical');
    expect(row(el, 5)?.querySelector('.pill')?.getAttribute('title')).toBe('raw count grew from 12 to 15');
  });

  it('cannot read now while the system is unreachable', async () => {
    const { el } = await render(ataSmart({}), { state: 'unreachable' });
    const button = [...el.querySelectorAll('button')].find((b) => b.textContent?.includes('Read now')) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toContain('unreachable');
  });
});
