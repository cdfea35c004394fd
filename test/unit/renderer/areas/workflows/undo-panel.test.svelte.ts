import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import UndoPanel from '../../../../../renderer/areas/workflows/UndoPanel.svelte';
import { NOTHING_CREATED, recordCreated, undoPlan, type UndoStep } from '../../../../../renderer/areas/workflows/undo.js';
import { setApi } from '../../../../../renderer/lib/api.js';
import { FleetStore } from '../../../../../renderer/lib/fleet.svelte.js';
import { SystemContext } from '../../../../../renderer/lib/system.svelte.js';
import { fakeApi, settle, site, status } from '../../support/fake-api.js';
import { renderComponent, type } from '../../support/render.js';

const req = (body: Record<string, unknown>) => ({ query: {}, headers: {}, body });
const plan = undoPlan(
  [
    ['POST /applications/create', req({ Application: 'db-prod' })],
    ['POST /hosts/create', req({ Name: 'esx1' })],
    ['POST /hosts/mappings/add', req({ Application: 'db-prod', Hosts: ['esx1'], Volumes: ['data'] })],
  ].reduce((c, [op, r]) => recordCreated(c, op as 'POST /hosts/create', r as ReturnType<typeof req>), NOTHING_CREATED),
);

describe('undo of a provisioning workflow', () => {
  it('runs each deletion after one confirmation, shows each outcome, and stops at the first that fails', async () => {
    const fake = fakeApi({
      sites: [site('s1', 'Site one')],
      statuses: [status('s1', 'prod-a', 'ok')],
      call: (r) => {
        if (r.operation === 'DELETE /hosts/delete') throw Object.assign(new Error('Host esx1 still has mappings.'), { code: 'api' });
        return 'Deleted.';
      },
    });
    setApi(fake.api);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    const undone: UndoStep[][] = [];
    const { target } = renderComponent(UndoPanel, { sys: new SystemContext(fleet, 's1', 'prod-a'), plan, onundone: (u: UndoStep[]) => undone.push(u) });
    const q = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);

    expect([...target.querySelectorAll('[data-testid="undo-plan"] li')].map((li) => li.textContent?.trim())).toEqual(['Unmap volume data of db-prod from esx1', 'Delete host esx1', 'Delete application db-prod with its volumes, consistency groups and snapshots']);
    q('undo-open')?.click();
    flushSync();
    expect(fake.calls()).toEqual([]);
    type(q('confirm-input') as HTMLInputElement, 'db-prod');
    flushSync();
    q('confirm-submit')?.click();
    await settle();

    expect(fake.calls().map((c) => [c.operation, c.query])).toEqual([
      ['DELETE /hosts/mappings/delete', { application: 'db-prod', hosts: ['esx1'], volumes: ['data'] }],
      ['DELETE /hosts/delete', { name: 'esx1' }],
    ]);
    expect([1, 2, 3].map((i) => q(`undo-step-${i}`)?.dataset.state)).toEqual(['done', 'failed', 'skipped']);
    expect(q('undo-step-2')?.textContent).toContain('still has mappings');
    expect(q('confirm-dialog')?.querySelector('[role="alert"]')?.textContent).toMatch(/Stopped at step 2/);
    expect(q('undo-summary')?.textContent).toContain('Stopped at the step that failed');
    expect(undone).toEqual([[plan[0]]]);
  });
});
