import { flushSync } from 'svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import App from '../../../renderer/App.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { fakeApi, key, settle, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

let target: HTMLElement;

beforeEach(async () => {
  setApi(fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok'), status('s1', 'prod-b', 'stale')], simulated: true }).api);
  target = renderComponent(App).target;
  await settle();
});


const palette = () => document.querySelector<HTMLElement>('[data-testid="command-palette"]');
const input = () => document.querySelector<HTMLInputElement>('[data-testid="palette-input"]') as HTMLInputElement;
const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')].map((o) => o.querySelector('.label')?.textContent ?? o.textContent);

function type(text: string): void {
  input().value = text;
  input().dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

describe('the app frame', () => {
  it('says clearly when the fleet is simulated', () => {
    expect(target.querySelector('[data-testid="simulated-banner"]')?.textContent).toContain('SIMULATED');
  });

  it('opens the command palette with Ctrl+K and goes to a system with the keyboard', async () => {
    key(window.document.body, 'k', { ctrlKey: true });
    await settle();
    expect(palette()).not.toBeNull();
    expect(document.activeElement).toBe(input());
    type('prod-b');
    expect(options()[0]).toBe('prod-b');
    key(input(), 'Enter');
    await settle();
    expect(palette()).toBeNull();
    expect(target.querySelector('[data-testid="system-page"]')?.getAttribute('data-system')).toBe('prod-b');
  });

  it('lists views of the open system and catalog operations', async () => {
    key(window.document.body, 'k', { metaKey: true });
    await settle();
    type('hosts/list');
    // No system is open yet: operations are listed but say why they cannot open.
    expect(options()).toContain('GET /hosts/list');
    expect(document.querySelector('[role="option"][aria-disabled="true"]')?.textContent).toContain('open a system first');
    key(input(), 'Escape');
    expect(palette()).toBeNull();

    (target.querySelector('[data-testid="tree-system-s1-prod-a"]') as HTMLElement).focus();
    key(document.activeElement as Element, 'Enter');
    await settle();
    key(window.document.body, 'k', { ctrlKey: true });
    await settle();
    type('hardware');
    expect(options()[0]).toBe('Hardware — prod-a');
    key(input(), 'Enter');
    await settle();
    expect(target.querySelector('[data-testid="area-hardware"]')).not.toBeNull();

    key(window.document.body, 'k', { ctrlKey: true });
    await settle();
    type('GET /hosts/list');
    key(input(), 'Enter');
    await settle();
    expect(target.querySelector('[data-testid="area-console"]')?.textContent).toContain('List hosts');
  });

  it('finds the provisioning workflows by their undo', async () => {
    (target.querySelector('[data-testid="tree-system-s1-prod-a"]') as HTMLElement).focus();
    key(document.activeElement as Element, 'Enter');
    await settle();
    for (const words of ['undo', 'undo provisioning']) {
      key(window.document.body, 'k', { ctrlKey: true });
      await settle();
      type(words);
      expect(options()[0], words).toBe('Workflows — prod-a');
      key(input(), 'Escape');
    }
  });

  it('moves through results with the arrow keys', async () => {
    key(window.document.body, 'k', { ctrlKey: true });
    await settle();
    type('prod');
    const activeLabel = () => document.querySelector('[role="option"][aria-selected="true"] .label')?.textContent;
    expect(activeLabel()).toBe('prod-a');
    key(input(), 'ArrowDown');
    expect(activeLabel()).toBe('prod-b');
    expect(input().getAttribute('aria-activedescendant')).toBe(document.querySelector('[role="option"][aria-selected="true"]')?.id);
    key(input(), 'ArrowUp');
    expect(activeLabel()).toBe('prod-a');
  });
});
