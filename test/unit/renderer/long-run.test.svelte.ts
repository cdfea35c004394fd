import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Response } from '../../../app/ipc/contract.js';
import NodeUtilityRunner from '../../../renderer/areas/hardware/NodeUtilityRunner.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { formatDuration, LongRun } from '../../../renderer/lib/long-run.svelte.js';
import { SystemContext } from '../../../renderer/lib/system.svelte.js';
import { deferred, ipcError, sent, withChannels } from './support/channels.js';
import { fakeApi, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

let target: HTMLElement | undefined;
afterEach(() => {
  vi.useRealTimers();
});

/** Lets pending promises run without real time passing (timers are fake). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};

describe('a long node utility run', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  });

  async function render() {
    const call = deferred<Response<'op:call'>>();
    const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok')] });
    setApi(
      withChannels(fake, {
        'op:call': () => call.promise,
        'op:cancel': () => {
          call.reject(ipcError('outcome-unknown', 'GET /nodes/utils/run was cancelled after it was sent; it may or may not have happened'));
          return { cancelled: true };
        },
      }),
    );
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    target = renderComponent(NodeUtilityRunner, { sys: new SystemContext(fleet, 's1', 'prod-a'), nodes: ['prod-a-n1'] }).target;
    flushSync();
    const q = (testid: string): HTMLElement | null => target!.querySelector<HTMLElement>(`[data-testid="${testid}"]`);
    return { fake, call, q };
  }

  it('shows how long it has run against its timeout, and Cancel ends it as outcome unknown', async () => {
    const { fake, q } = await render();
    const utility = target!.querySelector<HTMLInputElement>('input[list]')!;
    utility.value = 'sleep';
    utility.dispatchEvent(new Event('input', { bubbles: true }));
    const timeout = target!.querySelector<HTMLInputElement>('input[type="number"]')!;
    timeout.value = '600';
    timeout.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    q('utility-run')!.click();
    await flush();
    const [request] = sent(fake, 'op:call');
    expect(request).toMatchObject({ operation: 'GET /nodes/utils/run', query: { utility: 'sleep', timeoutSeconds: 600 }, callId: expect.any(String) });
    expect(q('utility-status-elapsed')?.textContent).toBe('Running for 0 s');
    expect(q('utility-status')?.textContent).toContain('(up to 10 min 00 s)');
    vi.advanceTimersByTime(75_000);
    flushSync();
    expect(q('utility-status-elapsed')?.textContent).toBe('Running for 1 min 15 s');

    q('utility-status-cancel')!.click();
    await flush();
    expect(sent(fake, 'op:cancel')).toEqual([{ callId: request!.callId }]);
    expect(q('utility-status')).toBeNull();
    expect(q('utility-output')?.textContent).toContain('was cancelled after it was sent; it may or may not have happened');
    expect(q('utility-result')?.textContent).toBe('Failed after 1 min 15 s.');
  });

  it('shows the output and the time taken once it answers', async () => {
    const { call, q } = await render();
    const utility = target!.querySelector<HTMLInputElement>('input[list]')!;
    utility.value = 'uptime';
    utility.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    q('utility-run')!.click();
    await flush();
    vi.advanceTimersByTime(2000);
    call.resolve({ result: ' 10:00:00 up 40 days' });
    await flush();
    expect(q('utility-output')?.textContent).toBe(' 10:00:00 up 40 days');
    expect(q('utility-result')?.textContent).toBe('Finished after 2 s.');
  });
});

describe('LongRun', () => {
  it('cancels nothing when nothing runs, and formats durations', async () => {
    const run = new LongRun({ now: () => 0, every: () => () => undefined });
    await run.cancel();
    expect(run.cancelling).toBe(false);
    expect([formatDuration(0), formatDuration(59_999), formatDuration(61_000), formatDuration(3_725_000)]).toEqual(['0 s', '59 s', '1 min 01 s', '1 h 02 min']);
  });
});
