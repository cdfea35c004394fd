import { createRawSnippet, flushSync, mount, unmount, type Component } from 'svelte';
import { describe, expect, it } from 'vitest';
import Lazy from '../../../renderer/components/Lazy.svelte';
import LevelPill from '../../../renderer/components/LevelPill.svelte';
import { lazyPart, partsLoaded } from '../../../renderer/lib/lazy.js';
import { deferred } from './support/channels.js';
import { settle } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

/**
 * Views and areas not on the first screen are script chunks loaded when first shown. While
 * one loads the place says so; a chunk that fails to load says why with Retry, never a blank view.
 */
type PillProps = { level: 'ok'; text: string };

function show(part: ReturnType<typeof lazyPart<PillProps>>, quiet?: boolean): HTMLElement {
  const children = createRawSnippet((loaded: () => Component<PillProps>) => ({
    render: () => '<div data-testid="shown"></div>',
    setup: (el: Element) => {
      const c = mount(loaded(), { target: el, props: { level: 'ok', text: 'loaded view' } });
      return () => void unmount(c);
    },
  }));
  return renderComponent(Lazy<PillProps>, { part, children, ...(quiet ? { quiet } : {}) }).target;
}

describe('a part loaded on first use', () => {
  it('shows a loading line, then the part, and loads its script once', async () => {
    const chunk = deferred<{ default: Component<PillProps> }>();
    let imports = 0;
    const part = lazyPart('the test view', () => {
      imports++;
      return chunk.promise;
    });
    const el = show(part);
    expect(el.querySelector('[data-testid="lazy-loading"]')?.textContent).toBe('Loading the test view…');
    expect(el.querySelector('[data-testid="lazy-loading"]')?.getAttribute('role')).toBe('status');

    chunk.resolve({ default: LevelPill as unknown as Component<PillProps> });
    await settle();
    expect(el.querySelector('[data-testid="lazy-loading"]')).toBeNull();
    expect(el.querySelector('[data-testid="shown"]')?.textContent).toBe('loaded view');

    // Shown again (another route, another system): at once, from the same script.
    const again = show(part);
    expect(again.querySelector('[data-testid="lazy-loading"]')).toBeNull();
    expect(again.querySelector('[data-testid="shown"]')?.textContent).toBe('loaded view');
    expect(imports).toBe(1);
  });

  it('shows nothing while a quiet part loads (a notice), but still says why it failed', async () => {
    const chunk = deferred<{ default: Component<PillProps> }>();
    const el = show(lazyPart('the test notice', () => chunk.promise), true);
    expect(el.textContent?.trim()).toBe('');
    chunk.resolve({ default: LevelPill as unknown as Component<PillProps> });
    await settle();
    expect(el.querySelector('[data-testid="shown"]')?.textContent).toBe('loaded view');

    const broken = deferred<{ default: Component<PillProps> }>();
    const failing = show(lazyPart('the other notice', () => broken.promise), true);
    broken.reject(new TypeError('Failed to fetch dynamically imported module'));
    await settle();
    expect(failing.querySelector('[data-testid="lazy-failed"]')?.textContent).toContain('Could not load the other notice');
  });

  it('says why a script failed to load and loads it again on Retry', async () => {
    const attempts = [deferred<{ default: Component<PillProps> }>(), deferred<{ default: Component<PillProps> }>()];
    let n = 0;
    const part = lazyPart('the test view', () => attempts[n++]!.promise);
    const el = show(part);
    attempts[0]!.reject(new TypeError('Failed to fetch dynamically imported module: app://fleetdeck/assets/TestView.js'));
    await settle();
    const failed = el.querySelector('[data-testid="lazy-failed"]');
    expect(failed?.getAttribute('role')).toBe('alert');
    expect(failed?.textContent).toContain('Could not load the test view: Failed to fetch dynamically imported module');
    expect(el.querySelector('[data-testid="shown"]')).toBeNull();

    (el.querySelector('[data-testid="lazy-retry"]') as HTMLButtonElement).click();
    flushSync();
    expect(n).toBe(2);
    expect(el.querySelector('[data-testid="lazy-loading"]')).not.toBeNull();
    attempts[1]!.resolve({ default: LevelPill as unknown as Component<PillProps> });
    await partsLoaded();
    await settle();
    expect(el.querySelector('[data-testid="lazy-failed"]')).toBeNull();
    expect(el.querySelector('[data-testid="shown"]')?.textContent).toBe('loaded view');
  });
});
