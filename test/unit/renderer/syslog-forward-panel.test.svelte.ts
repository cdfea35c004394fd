import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../app/ipc/contract.js';
import { setApi } from '../../../renderer/lib/api.js';
import SyslogForwardPanel from '../../../renderer/components/SyslogForwardPanel.svelte';
import { ipcError, sent, withChannels, type Handlers } from './support/channels.js';
import { fakeApi, settle } from './support/fake-api.js';
import { renderComponent, type } from './support/render.js';

type Status = Response<'forward:status'>;
const ON: Status = { target: 'tls://logs.example.com:6514', trust: 'pinned', pinSha256: 'ab'.repeat(32), managed: false, state: 'connecting', logId: 'f'.repeat(32), ackedSeq: 41, ackedAt: '2026-03-01T10:00:00.000Z', queued: 7, lastError: 'tls://logs.example.com:6514: connect ECONNREFUSED', lastErrorAt: '2026-03-01T10:01:00.000Z' };

async function render(handlers: Handlers, props: { editable?: boolean } = {}) {
  const fake = fakeApi({ sites: [], statuses: [] });
  setApi(withChannels(fake, handlers));
  const app = renderComponent(SyslogForwardPanel, { refreshMs: 60_000, ...props });
  await settle();
  const q = <T extends Element = HTMLElement>(testid: string) => app.target.querySelector<T>(`[data-testid="${testid}"]`) as T;
  return { fake, q };
}

describe('the syslog forwarding panel', () => {
  it('shows the target, the last record acknowledged, the queue and the last error with its time', async () => {
    const { q } = await render({ 'forward:status': () => ON });
    expect(q('syslog-forward-target').textContent).toBe('tls://logs.example.com:6514');
    expect(q('syslog-forward-state').textContent).toContain('retrying');
    expect(q('syslog-forward-acked').textContent).toContain('#41');
    expect(q('syslog-forward-acked').querySelector('time')?.getAttribute('datetime')).toBe(ON.ackedAt);
    expect(q('syslog-forward-queued').textContent).toBe('7 records');
    expect(q('syslog-forward-error').textContent).toContain('ECONNREFUSED');
    expect(q('syslog-forward-error').querySelector('time')?.getAttribute('datetime')).toBe(ON.lastErrorAt);
    // The form starts from the setting in force.
    expect(q<HTMLInputElement>('syslog-forward-input').value).toBe(ON.target);
    expect(q<HTMLInputElement>('syslog-forward-pin').value).toBe(ON.pinSha256);
  });

  it('sends the setting typed, and shows why main refused one', async () => {
    let answer: Status = { managed: false, state: 'off', logId: 'f'.repeat(32), ackedSeq: 0, queued: 3 };
    const { fake, q } = await render({
      'forward:status': () => answer,
      'forward:set': (r) => {
        if (r.setting?.target === 'udp://x:1') throw ipcError('validation', '"udp://x:1" is not a syslog target');
        answer = { ...answer, target: r.setting?.target, trust: 'none', state: 'sending' };
        return answer;
      },
    });
    type(q('syslog-forward-input'), 'udp://x:1');
    (q('syslog-forward-save') as HTMLButtonElement).click();
    await settle();
    expect(q('syslog-forward-save-error').textContent).toContain('not a syslog target');
    type(q('syslog-forward-input'), 'tcp://127.0.0.1:514');
    flushSync();
    (q('syslog-forward-save') as HTMLButtonElement).click();
    await settle();
    expect(sent(fake, 'forward:set').at(-1)).toEqual({ setting: { target: 'tcp://127.0.0.1:514' } });
    expect(q('syslog-forward-target').textContent).toBe('tcp://127.0.0.1:514');
    (q('syslog-forward-off') as HTMLButtonElement).click();
    await settle();
    expect(sent(fake, 'forward:set').at(-1)).toEqual({ setting: null });
  });

  it('offers no form when the organisation manages the setting, and says so', async () => {
    const { q } = await render({ 'forward:status': () => ({ ...ON, managed: true }) });
    expect(q('syslog-forward-target').textContent).toContain('managed by your organisation');
    expect(q('syslog-forward-form')).toBeNull();
  });

  it('offers no form in a window scoped to one site', async () => {
    const { q } = await render({ 'forward:status': () => ON }, { editable: false });
    expect(q('syslog-forward-status')).not.toBeNull();
    expect(q('syslog-forward-form')).toBeNull();
  });
});
