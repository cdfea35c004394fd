import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Request } from '../../../app/ipc/contract.js';
import OpForm from '../../../renderer/components/forms/OpForm.svelte';
import { IpcCallError, setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { SystemContext } from '../../../renderer/lib/system.svelte.js';
import { fakeApi, settle, site, status } from './support/fake-api.js';
import { choose, renderComponent, type } from './support/render.js';

let target: HTMLElement | undefined;


async function render(props: Record<string, unknown>, options: { state?: 'ok' | 'unreachable'; call?: (req: Request<'op:call'>) => unknown } = {}) {
  const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'cobalt-01', options.state ?? 'ok')], call: options.call ?? (() => 'ok') });
  setApi(fake.api);
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  const sys = new SystemContext(fleet, 's1', 'cobalt-01');
  target = renderComponent(OpForm, { sys, ...props } as never).target;
  await settle();
  return { el: target, fake };
}

const q = <T extends Element = HTMLElement>(el: ParentNode, testid: string): T => {
  const found = el.querySelector<T>(`[data-testid="${testid}"]`);
  if (!found) throw new Error(`no [data-testid="${testid}"]`);
  return found;
};



async function send(el: HTMLElement): Promise<void> {
  q<HTMLButtonElement>(el, 'op-submit').click();
  await settle();
}

describe('a form generated from the catalog', () => {
  it('renders each field by its type: text, password for secrets, list textarea, boolean select, nested groups', async () => {
    const { el } = await render({ op: 'POST /hypervisor/datastore/plugin/create' });
    expect(q<HTMLSelectElement>(el, 'field-headers.async').tagName).toBe('SELECT');
    expect(q<HTMLInputElement>(el, 'field-body.SessionTokenPlugin').type).toBe('password');
    expect(q<HTMLInputElement>(el, 'field-body.ManagerAddress').type).toBe('text');
    expect(q(el, 'field-body.datastore.HypervisorHosts').tagName).toBe('TEXTAREA');
    expect(q<HTMLInputElement>(el, 'field-body.volume.Tiers.TierN').tagName).toBe('TEXTAREA');
    expect(q<HTMLInputElement>(el, 'field-body.volume.EncryptionKey').type).toBe('password');
    // Arrays of objects grow item by item.
    expect(el.querySelector('[data-testid="field-body.volume.Mapping[0].LunId"]')).toBeNull();
    q<HTMLButtonElement>(el, 'add-body.volume.Mapping').click();
    flushSync();
    expect(q(el, 'field-body.volume.Mapping[0].LunId').tagName).toBe('INPUT');
  });

  it('removes an item of an array of objects, moving the later ones up with their text', async () => {
    const { el } = await render({ op: 'POST /hypervisor/datastore/plugin/create', preview: true });
    const add = q<HTMLButtonElement>(el, 'add-body.volume.Mapping');
    add.click();
    add.click();
    flushSync();
    type(q(el, 'field-body.volume.Mapping[0].Host'), 'esx01');
    type(q(el, 'field-body.volume.Mapping[1].Host'), 'esx02');
    type(q(el, 'field-body.volume.Mapping[1].LunId'), '9');
    (el.querySelector('[aria-label="Remove Mapping item 1"]') as HTMLButtonElement).click();
    flushSync();
    expect(q<HTMLInputElement>(el, 'field-body.volume.Mapping[0].Host').value).toBe('esx02');
    expect(q<HTMLInputElement>(el, 'field-body.volume.Mapping[0].LunId').value).toBe('9');
    expect(el.querySelector('[data-testid="field-body.volume.Mapping[1].Host"]')).toBeNull();
    expect(q(el, 'op-preview').textContent?.replace(/\s+/g, ' ')).toContain('"Mapping": [ { "Host": "esx02", "LunId": 9 } ]');
  });

  it('shows a clear message under a field once it is left, and ties it to the input', async () => {
    const { el } = await render({ op: 'POST /hosts/create' });
    const wwns = q<HTMLTextAreaElement>(el, 'field-body.Wwns');
    wwns.value = '10:00:00:90:fa:12:34';
    wwns.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    // Not while typing…
    expect(wwns.getAttribute('aria-invalid')).toBe('false');
    wwns.dispatchEvent(new FocusEvent('blur'));
    flushSync();
    // …but once left.
    expect(wwns.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(wwns.getAttribute('aria-describedby')!.split(' ').find((id) => id.endsWith('-err'))!);
    expect(message?.textContent).toBe('“10:00:00:90:fa:12:34” has 14 hex digits; a WWN has 16, optionally with a colon between each pair (10:00:00:90:fa:12:34:56)');

    type(q(el, 'field-body.Iqn'), 'iqn.2025-13.com.example');
    expect(el.textContent).toContain('has no valid month');
    type(q(el, 'field-body.Nqn'), 'nqn.2014-08.com.example');
    expect(el.textContent).toContain('lacks the identifier');
    type(q(el, 'field-body.Ip'), '10.0.0.256');
    expect(el.textContent).toContain('each of the four numbers is 0 to 255');
  });

  it('lists every problem on submit and sends nothing', async () => {
    const { el, fake } = await render({ op: 'POST /hosts/mappings/add', options: { 'body.Application': { required: true } } });
    type(q(el, 'field-body.LunIds'), '1\n16384');
    await send(el);
    const summary = q(el, 'op-problems');
    expect(summary.getAttribute('role')).toBe('alert');
    expect(summary.textContent).toContain('Application: required');
    expect(summary.textContent).toContain('LUN ids: line 2: LUN id 16384 is above 16383');
    expect(document.activeElement).toBe(summary);
    expect(fake.calls()).toEqual([]);
  });

  it('says what integers, numbers and date-times need', async () => {
    const { el } = await render({ op: 'GET /monitoring/top/volumes', preview: true });
    type(q(el, 'field-query.limit'), '2.5');
    type(q(el, 'field-query.fromDate'), 'last tuesday');
    expect(el.textContent).toContain('“2.5” has a fraction: enter a whole number');
    expect(el.textContent).toContain('“last tuesday” is not a date-time like 2026-01-31T13:45:00 (UTC)');
  });

  it('previews the request with repeated query keys and secrets masked, then sends it and forgets the secret', async () => {
    const { el, fake } = await render({ op: 'POST /hosts/create', preview: true, showResult: true }, { call: () => "Host 'esx9' created." });
    type(q(el, 'field-body.Name'), 'esx9');
    type(q(el, 'field-body.ChapSecret'), 'chap-secret-123');
    type(q(el, 'field-body.Wwns'), '10:00:00:90:fa:12:34:56\n10000090fa123457');
    choose(q(el, 'field-query.async'), 'false');
    const preview = q(el, 'op-preview').textContent ?? '';
    expect(preview).toContain('POST /hosts/create?async=false');
    expect(preview).toContain('Authorization: Bearer [redacted]');
    expect(preview).toContain('Content-Type: application/json-patch+json');
    expect(preview).toContain('"ChapSecret": "[redacted]"');
    expect(preview).not.toContain('chap-secret-123');
    await send(el);
    expect(fake.calls()).toEqual([
      {
        site: 's1',
        system: 'cobalt-01',
        operation: 'POST /hosts/create',
        query: { async: false },
        body: { Name: 'esx9', Wwns: ['10:00:00:90:fa:12:34:56', '10000090fa123457'], ChapSecret: 'chap-secret-123' },
      },
    ]);
    expect(q(el, 'op-result').textContent).toBe("Host 'esx9' created.");
    // The secret is gone from the form; the rest stays for the next request.
    expect(q<HTMLInputElement>(el, 'field-body.ChapSecret').value).toBe('');
    expect(q<HTMLInputElement>(el, 'field-body.Name').value).toBe('esx9');
  });

  it('shows the server error string as it came', async () => {
    const { el } = await render(
      { op: 'DELETE /hosts/delete', showResult: true },
      {
        call: () => {
          throw new IpcCallError('api', "Host 'esx01' has 2 mapping(s); delete them first.");
        },
      },
    );
    type(q(el, 'field-query.name'), 'esx01');
    type(q(el, 'op-confirm-input'), 'esx01');
    await send(el);
    expect(q(el, 'op-error').textContent).toBe("Host 'esx01' has 2 mapping(s); delete them first.");
  });
});

describe('destructive operations', () => {
  it('enable only after the selector value is typed', async () => {
    const { el, fake } = await render({ op: 'DELETE /applications/delete' });
    const submit = q<HTMLButtonElement>(el, 'op-submit');
    expect(submit.disabled).toBe(true);
    expect(el.querySelector('[data-testid="op-confirm-input"]')).toBeNull();
    expect(el.textContent).toContain('Fill in application first');
    type(q(el, 'field-query.application'), 'hr');
    const confirm = q<HTMLInputElement>(el, 'op-confirm-input');
    expect(el.textContent).toContain('Type hr to confirm');
    type(confirm, 'HR');
    expect(submit.disabled).toBe(true);
    type(confirm, 'hr');
    expect(submit.disabled).toBe(false);
    await send(el);
    expect(fake.calls().map((c) => c.query)).toEqual([{ application: 'hr' }]);
    // One confirmation, one send: the next one needs typing again.
    expect(q<HTMLInputElement>(el, 'op-confirm-input').value).toBe('');
    expect(submit.disabled).toBe(true);
  });

  it('confirm with the system name when the operation names nothing', async () => {
    const { el } = await render({ op: 'PUT /nodes/giveback' });
    expect(el.textContent).toContain('Type cobalt-01 to confirm');
  });
});

describe('a write whose outcome is unknown', () => {
  it('is not sent again until the list operation has been checked', async () => {
    let creates = 0;
    const { el, fake } = await render(
      { op: 'POST /hosts/create' },
      {
        call: (req) => {
          if (req.operation === 'GET /hosts/list') return { Data: [{ Name: 'esx9' }] };
          creates++;
          throw new IpcCallError('outcome-unknown', 'POST /hosts/create timed out; it may or may not have happened and was not resent: check before retrying');
        },
      },
    );
    type(q(el, 'field-body.Name'), 'esx9');
    await send(el);
    expect(creates).toBe(1);
    const panel = q(el, 'outcome-unknown');
    expect(panel.getAttribute('role')).toBe('alert');
    expect(panel.textContent).toContain('POST /hosts/create timed out; it may or may not have happened');
    const submit = q<HTMLButtonElement>(el, 'op-submit');
    expect(submit.disabled).toBe(true);
    submit.click();
    await settle();
    expect(creates).toBe(1);

    const check = q<HTMLButtonElement>(el, 'outcome-check');
    expect(check.textContent).toContain('Check with GET /hosts/list');
    check.click();
    await settle();
    expect(fake.calls().map((c) => c.operation)).toEqual(['POST /hosts/create', 'GET /hosts/list']);
    expect(q(el, 'outcome-verdict').textContent).toContain('“esx9” is listed: the operation was applied.');
    expect(submit.disabled).toBe(false);
    expect(submit.textContent).toContain('Send again');
  });
});

describe('offline', () => {
  it('refuses writes with the reason', async () => {
    const { el, fake } = await render({ op: 'POST /hosts/create' }, { state: 'unreachable' });
    const submit = q<HTMLButtonElement>(el, 'op-submit');
    expect(submit.getAttribute('aria-disabled')).toBe('true');
    expect(submit.title).toBe('Read-only: the system is unreachable');
    type(q(el, 'field-body.Name'), 'h');
    await send(el);
    expect(fake.calls()).toEqual([]);
  });
});
